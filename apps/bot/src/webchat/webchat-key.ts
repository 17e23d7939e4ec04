import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** The file name of the WebChat server key inside the data dir. */
export const WEBCHAT_KEY_FILE = "webchat.key";

/**
 * The WebChat server key (32 random bytes, kept hex-encoded in `path`), created with mode 0600 on first use and
 * reused afterwards, so browsers keep their public ids and access cookies across restarts.
 * Contract: rejects with a clear Error when the file exists but does not hold a key.
 */
export async function loadOrCreateWebchatKey(path: string): Promise<Buffer> {
  const existing = await readKey(path);
  if (existing !== undefined) return existing;
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process created it in between: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const created = await readKey(path);
  if (created === undefined) throw new Error(`webchat: could not create the key file ${path}`);
  return created;
}

async function readKey(path: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new Error(`webchat: ${path} does not hold a WebChat key (64 hex digits); delete it to make a new one`);
  }
  return Buffer.from(hex, "hex");
}
