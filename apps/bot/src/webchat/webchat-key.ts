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

/** The name of the WebChat server key among the values the instances of a cluster agree on. */
export const WEBCHAT_CLUSTER_KEY = "webchat.key";

/**
 * The WebChat key of a cluster: the first instance's own key, stored in the database (`agreeOn`), so that a browser's
 * cookie means the same person, and an access cookie stays good, on every instance.
 * Contract: rejects when the store cannot be reached, or when what is stored is not a key.
 */
export async function clusterWebchatKey(
  own: Buffer,
  agreeOn: (name: string, proposal: string) => Promise<string>,
): Promise<Buffer> {
  const hex = await agreeOn(WEBCHAT_CLUSTER_KEY, own.toString("hex"));
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error("webchat: the cluster's stored WebChat key is not 64 hex digits");
  return Buffer.from(hex, "hex");
}
