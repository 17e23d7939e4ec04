import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { WebchatRoom } from "./webchat-protocol.js";

/** A stored file's id: 192 random bits, base64url (32 characters); also its file name, so nothing else is one. */
export const FILE_ID = /^[A-Za-z0-9_-]{32}$/;

/** A file a browser uploaded, to attach to one of its messages. */
export interface UploadMeta {
  readonly kind: "upload";
  readonly name: string;
  /** What the browser declared. */
  readonly mimeType?: string;
  readonly sizeBytes: number;
  readonly at: number;
  /** The public id of the browser that uploaded it: the only one that may attach it. */
  readonly owner: string;
  /** The message that carries it, once attached (an attached upload is kept; an unsent one is swept after a day). */
  readonly attached?: { readonly chatId: string; readonly messageId: string };
}

/** A file the bot sent to a chat, served to that chat's browsers. */
export interface SentMeta {
  readonly kind: "sent";
  readonly name: string;
  readonly mimeType: string;
  readonly sizeBytes: number;
  readonly at: number;
  readonly room: WebchatRoom;
  /** The browser's public id (a DM) or `group`. */
  readonly chatId: string;
  readonly messageId: string;
  readonly caption?: string;
}

/** What is kept beside a stored file's bytes (`<id>.json`). */
export type StoredFileMeta = UploadMeta | SentMeta;

/** An upload refused because its body passed the cap; nothing of it is left on disk. */
export class UploadTooLargeError extends Error {
  override readonly name = "UploadTooLargeError";
}

/**
 * WebChat's files on disk, one directory (`<dataDir>/webchat/uploads`, 0700): `<id>` holds the bytes and
 * `<id>.json` what is known of them (both 0600); a file being written is `<id>.part` until complete.
 * Contract: ids are unguessable and checked against `FILE_ID` before any path is built; a file is visible (`meta`)
 * only once complete; nothing here decides who may see a file.
 */
export class WebchatFileStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  get dir(): string {
    return this.#dir;
  }

  /** Creates the directory (0700, also when it existed with a wider mode). */
  async open(): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    await chmod(this.#dir, 0o700);
  }

  /**
   * Stores a request body as an upload. Contract: rejects with UploadTooLargeError as soon as more than `maxBytes`
   * arrived (the source is paused, not read further, and nothing is kept); the source is never destroyed, so the
   * caller can still answer on its connection.
   */
  async receive(source: Readable, meta: Omit<UploadMeta, "kind" | "sizeBytes">, maxBytes: number): Promise<string> {
    const id = newFileId();
    const part = this.#path(`${id}.part`);
    try {
      const sizeBytes = await writeBounded(source, part, maxBytes);
      await this.#commit(id, { kind: "upload", ...meta, sizeBytes });
      return id;
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
  }

  /** Stores bytes the bot sends; resolves with their id. */
  async save(bytes: Uint8Array, meta: (id: string) => Omit<SentMeta, "kind" | "sizeBytes">): Promise<string> {
    const id = newFileId();
    const part = this.#path(`${id}.part`);
    try {
      await writeFile(part, bytes, { mode: 0o600, flag: "wx" });
      await this.#commit(id, { kind: "sent", ...meta(id), sizeBytes: bytes.byteLength });
      return id;
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
  }

  /** What is known of a complete file; undefined for a malformed id or a file that is not (or no longer) here. */
  async meta(id: string): Promise<StoredFileMeta | undefined> {
    if (!FILE_ID.test(id)) return undefined;
    try {
      const meta = JSON.parse(await readFile(this.#path(`${id}.json`), "utf8")) as StoredFileMeta;
      await stat(this.#path(id));
      return meta;
    } catch {
      return undefined;
    }
  }

  /** Rewrites what is known of a file (atomically: a crash leaves the old or the new). */
  async update(id: string, meta: StoredFileMeta): Promise<void> {
    if (!FILE_ID.test(id)) throw new Error(`webchat: malformed file id ${id}`);
    const next = this.#path(`${id}.json.next`);
    await writeFile(next, JSON.stringify(meta), { mode: 0o600 });
    await rename(next, this.#path(`${id}.json`));
  }

  /**
   * A file's bytes. Contract: "too-large" when it is longer than `maxBytes` (never more than `maxBytes` + 1 bytes
   * read), "missing" when it is not here.
   */
  async read(id: string, maxBytes: number): Promise<Uint8Array | "too-large" | "missing"> {
    if (!FILE_ID.test(id)) return "missing";
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.#path(id), "r");
    } catch {
      return "missing";
    }
    try {
      const { size } = await handle.stat();
      if (size > maxBytes) return "too-large";
      const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled > maxBytes) return "too-large";
      return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
    } finally {
      await handle.close();
    }
  }

  /** The path of a complete file's bytes (for streaming it); undefined for a malformed id. */
  pathOf(id: string): string | undefined {
    return FILE_ID.test(id) ? this.#path(id) : undefined;
  }

  async remove(id: string): Promise<void> {
    if (!FILE_ID.test(id)) return;
    await rm(this.#path(`${id}.json`), { force: true });
    await rm(this.#path(id), { force: true });
  }

  /**
   * Every complete file with what is known of it, after removing uploads never attached and half-written files
   * older than `maxAgeMs` (at start: what a browser uploaded and never sent).
   */
  async sweep(now: number, maxAgeMs: number): Promise<{ id: string; meta: StoredFileMeta }[]> {
    const names = new Set(await readdir(this.#dir));
    const kept: { id: string; meta: StoredFileMeta }[] = [];
    for (const name of names) {
      const id = name.split(".")[0] ?? "";
      if (!FILE_ID.test(id)) continue;
      if (name === id) {
        if (!names.has(`${id}.json`)) await this.#removeIfOlder(name, now - maxAgeMs); // bytes never committed
        continue;
      }
      if (name !== `${id}.json`) {
        await this.#removeIfOlder(name, now - maxAgeMs); // `.part`, `.json.next`
        continue;
      }
      const meta = await this.meta(id);
      if (meta === undefined) {
        await this.#removeIfOlder(name, now - maxAgeMs);
      } else if (meta.kind === "upload" && meta.attached === undefined && meta.at < now - maxAgeMs) {
        await this.remove(id);
      } else {
        kept.push({ id, meta });
      }
    }
    return kept;
  }

  async #removeIfOlder(name: string, before: number): Promise<void> {
    const info = await stat(this.#path(name)).catch(() => undefined);
    if (info !== undefined && info.mtimeMs < before) await rm(this.#path(name), { force: true });
  }

  /** Writes `<id>.json`, then renames `<id>.part` to `<id>`: the file exists only once both are complete. */
  async #commit(id: string, meta: StoredFileMeta): Promise<void> {
    await writeFile(this.#path(`${id}.json`), JSON.stringify(meta), { mode: 0o600, flag: "wx" });
    await rename(this.#path(`${id}.part`), this.#path(id));
  }

  #path(name: string): string {
    return join(this.#dir, name);
  }
}

function newFileId(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * Copies `source` into a new file (0600) until it ends; resolves with the byte count. Rejects with
 * UploadTooLargeError once more than `maxBytes` arrived, pausing the source (no further read) without destroying it.
 */
async function writeBounded(source: Readable, path: string, maxBytes: number): Promise<number> {
  const handle = await open(path, "wx", 0o600);
  try {
    return await new Promise<number>((resolve, reject) => {
      let size = 0;
      let writing = Promise.resolve();
      let settled = false;
      const finish = (error: Error | undefined): void => {
        if (settled) return;
        settled = true;
        source.off("data", onData);
        source.off("end", onEnd);
        source.off("error", onError);
        source.off("close", onClose);
        if (error !== undefined) {
          source.pause();
          reject(error);
        } else {
          writing.then(() => resolve(size), reject);
        }
      };
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > maxBytes) {
          finish(new UploadTooLargeError(`the file is larger than ${maxBytes} bytes`));
          return;
        }
        source.pause();
        writing = writing.then(async () => {
          await handle.write(chunk);
          if (!settled) source.resume();
        });
        writing.catch((error: unknown) => finish(error as Error));
      };
      const onEnd = (): void => finish(undefined);
      const onError = (error: Error): void => finish(error);
      const onClose = (): void => finish(new Error("the upload was cut off"));
      source.on("data", onData);
      source.once("end", onEnd);
      source.once("error", onError);
      source.once("close", onClose);
    });
  } finally {
    await handle.close();
  }
}
