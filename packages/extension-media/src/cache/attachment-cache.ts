import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** What the cache knows of a platform file: the hash of its bytes and the type they were sniffed as. */
export interface SourceEntry {
  readonly sha256: string;
  readonly mimeType: string;
  readonly sizeBytes: number;
}

const SHA256 = /^[0-9a-f]{64}$/;
const VARIANT = /^[a-z0-9-]{1,40}$/;

/** The sha256 of bytes, hex. */
export function sha256Of(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Downloaded files on disk, by content hash (`blobs/<sha256>`), what was made of them (`derived/<sha256>-<variant>`:
 * a resized image, a transcript, a PDF's text) and which platform file had which hash (`sources/`). Every write goes
 * to a temporary file renamed into place, so a crash never leaves half a file under a real name. Blobs and derived
 * files are evicted least recently used first once they hold more than `maxBytes`; a lost file is fetched again.
 * Contract: files are private to the process's user (0600 in a 0700 directory); keys are validated.
 */
export class AttachmentCache {
  readonly #dir: string;
  readonly #maxBytes: number;
  #heldBytes = 0;
  #opened: Promise<void> | undefined;

  constructor(dir: string, maxBytes: number) {
    this.#dir = dir;
    this.#maxBytes = maxBytes;
  }

  /** Bytes in blobs and derived files now (as counted since open). */
  get heldBytes(): number {
    return this.#heldBytes;
  }

  /** The hash and type of a platform file seen before, if the cache still has them. */
  async source(key: string): Promise<SourceEntry | undefined> {
    await this.#open();
    const text = await readFile(this.#sourcePath(key), "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const entry = JSON.parse(text) as SourceEntry;
      return SHA256.test(entry.sha256) ? entry : undefined;
    } catch {
      return undefined;
    }
  }

  async rememberSource(key: string, entry: SourceEntry): Promise<void> {
    await this.#open();
    await this.#writeAtomic(this.#sourcePath(key), JSON.stringify(entry), false);
  }

  /** Whether the chat was already told about this problem (a restart must not tell it again). */
  async told(key: string): Promise<boolean> {
    await this.#open();
    return (await stat(join(this.#dir, "told", sha256Of(key))).catch(() => undefined)) !== undefined;
  }

  async rememberTold(key: string): Promise<void> {
    await this.#open();
    await this.#writeAtomic(join(this.#dir, "told", sha256Of(key)), "", false);
  }

  /** The bytes with this hash, if kept (and marks them used). */
  async blob(sha256: string): Promise<Uint8Array | undefined> {
    return this.#read(this.#blobPath(sha256));
  }

  /** Keeps bytes under their hash; resolves with the hash. */
  async putBlob(bytes: Uint8Array): Promise<string> {
    const sha256 = sha256Of(bytes);
    await this.#open();
    const path = this.#blobPath(sha256);
    if ((await stat(path).catch(() => undefined)) === undefined) await this.#writeAtomic(path, bytes, true);
    return sha256;
  }

  /** What was made of the bytes with this hash under `variant`, if kept. */
  async derived(sha256: string, variant: string): Promise<Uint8Array | undefined> {
    return this.#read(this.#derivedPath(sha256, variant));
  }

  async putDerived(sha256: string, variant: string, bytes: Uint8Array | string): Promise<void> {
    await this.#open();
    await this.#writeAtomic(this.#derivedPath(sha256, variant), bytes, true);
  }

  async #read(path: string): Promise<Uint8Array | undefined> {
    await this.#open();
    const bytes = await readFile(path).catch(() => undefined);
    if (bytes === undefined) return undefined;
    const now = new Date();
    await utimes(path, now, now).catch(() => {});
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  #sourcePath(key: string): string {
    return join(this.#dir, "sources", `${sha256Of(key)}.json`);
  }

  #blobPath(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error("not a sha256");
    return join(this.#dir, "blobs", sha256);
  }

  #derivedPath(sha256: string, variant: string): string {
    if (!SHA256.test(sha256) || !VARIANT.test(variant)) throw new Error("not a cache key");
    return join(this.#dir, "derived", `${sha256}-${variant}`);
  }

  #open(): Promise<void> {
    this.#opened ??= (async () => {
      for (const sub of ["blobs", "derived", "sources", "told", "tmp"]) {
        await mkdir(join(this.#dir, sub), { recursive: true, mode: 0o700 });
      }
      // Temporary files a crash left behind.
      await rm(join(this.#dir, "tmp"), { recursive: true, force: true });
      await mkdir(join(this.#dir, "tmp"), { mode: 0o700 });
      this.#heldBytes = (await this.#entries()).reduce((sum, entry) => sum + entry.size, 0);
    })();
    return this.#opened;
  }

  async #writeAtomic(path: string, data: Uint8Array | string, counted: boolean): Promise<void> {
    const temporary = join(this.#dir, "tmp", randomBytes(8).toString("hex"));
    // The directories may have been removed under a running process (a cleared cache): made again, cheaply.
    await mkdir(join(this.#dir, "tmp"), { recursive: true, mode: 0o700 });
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(temporary, data, { mode: 0o600 });
    const previous = counted ? await stat(path).catch(() => undefined) : undefined;
    await rename(temporary, path);
    if (!counted) return;
    this.#heldBytes += (typeof data === "string" ? Buffer.byteLength(data) : data.byteLength) - (previous?.size ?? 0);
    if (this.#heldBytes > this.#maxBytes) await this.#evict();
  }

  /** Removes the least recently used blobs and derived files until the cache holds 90 % of its cap. */
  async #evict(): Promise<void> {
    const entries = (await this.#entries()).sort((a, b) => a.usedAt - b.usedAt);
    let held = entries.reduce((sum, entry) => sum + entry.size, 0);
    const target = this.#maxBytes * 0.9;
    for (const entry of entries) {
      if (held <= target) break;
      await rm(entry.path, { force: true });
      held -= entry.size;
    }
    this.#heldBytes = held;
  }

  async #entries(): Promise<{ path: string; size: number; usedAt: number }[]> {
    const entries: { path: string; size: number; usedAt: number }[] = [];
    for (const sub of ["blobs", "derived"]) {
      const names = await readdir(join(this.#dir, sub)).catch(() => [] as string[]);
      for (const name of names) {
        const path = join(this.#dir, sub, name);
        const info = await stat(path).catch(() => undefined);
        if (info !== undefined) entries.push({ path, size: info.size, usedAt: info.mtimeMs });
      }
    }
    return entries;
  }
}
