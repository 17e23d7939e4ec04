import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";

/** The permission bits of group and others: none of them may be set under the data dir. */
const GROUP_AND_OTHERS = 0o077;

/** What making the data dir private changed. */
export interface DataDirTightening {
  /** How many files and folders lost their group/other permissions. */
  readonly count: number;
  /** The first few of them, for the log line. */
  readonly examples: readonly string[];
}

/**
 * Creates the data dir readable by its owner only (0700), and tightens what an earlier version left open: every
 * folder and file under it loses its group and other permissions (0755 → 0700, 0644 → 0600; the owner's bits, an
 * executable's x included, stay). Transcripts, memory, saved outputs, workspaces and the WebChat key are then
 * unreadable by other users of the machine. Symlinks are not followed.
 * Contract: returns what it changed (count 0 on a fresh or already private dir); rejects only when the dir cannot
 * be created; a file it may not chmod (another user's) is left as it is.
 */
export async function makeDataDirPrivate(dataDir: string): Promise<DataDirTightening> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const changed: string[] = [];
  const tighten = async (path: string): Promise<void> => {
    const stat = await lstat(path).catch(() => undefined);
    if (stat === undefined || stat.isSymbolicLink() || (stat.mode & GROUP_AND_OTHERS) === 0) return;
    const done = await chmod(path, stat.mode & 0o7700).then(
      () => true,
      () => false,
    );
    if (done) changed.push(path);
  };
  await tighten(dataDir);
  const entries = await readdir(dataDir, { recursive: true }).catch(() => [] as string[]);
  for (const entry of entries) await tighten(join(dataDir, entry));
  return { count: changed.length, examples: changed.slice(0, 5) };
}
