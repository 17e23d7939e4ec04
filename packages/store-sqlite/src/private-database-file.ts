import { chmodSync, closeSync, existsSync, openSync } from "node:fs";

/** The files SQLite keeps beside a database: the write-ahead log and its shared-memory index. */
const COMPANION_SUFFIXES = ["-wal", "-shm"];

/**
 * Makes a database file readable by its owner only, before SQLite opens it: creates it empty with mode 0600 when it
 * does not exist (SQLite would create it 0644), and tightens an existing one and its `-wal`/`-shm` to 0600. SQLite
 * gives the `-wal` and `-shm` files it creates later the mode of the database file, so they are 0600 too. Transcripts
 * and memory facts are then unreadable by other users of the machine, whatever the process's umask.
 * Contract: nothing for `:memory:`; a file this user cannot chmod (owned by another) is left as it is, and a file that
 * cannot be created is left for SQLite's own open to report.
 */
export function keepDatabaseFilesPrivate(path: string): void {
  if (path === ":memory:" || path.startsWith("file:")) return;
  try {
    // An empty file is an empty database to SQLite.
    if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
  } catch {
    return;
  }
  for (const file of [path, ...COMPANION_SUFFIXES.map((suffix) => `${path}${suffix}`)]) {
    try {
      if (existsSync(file)) chmodSync(file, 0o600);
    } catch {
      // Not ours to change (another user's file): opening it reports what matters.
    }
  }
}
