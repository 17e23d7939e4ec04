import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** How long a spooled file waits for its send: the outbox gives up on a delivery long before this. */
const SPOOL_KEEP_MS = 7 * 24 * 3600_000;

/**
 * Removes files from the outgoing spool that are older than a week (sent long ago, or given up).
 * Contract: never rejects; a missing spool is nothing to clean.
 */
export async function removeStaleSpool(dir: string, now: number): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info !== undefined && now - info.mtimeMs > SPOOL_KEEP_MS) await rm(path, { force: true }).catch(() => {});
  }
}
