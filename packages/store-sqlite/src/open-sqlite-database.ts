import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SessionStoreError } from "@chorus/store";
import { applyMigrations } from "./apply-migrations.js";
import { keepDatabaseFilesPrivate } from "./private-database-file.js";
import { translateSqliteError } from "./sqlite-errors.js";
import type { SqliteMigration } from "./sqlite-migrations.js";

/**
 * Opens (creating if needed) the database file, configures it and migrates its schema.
 * Contract: returns an open, migrated connection, or throws a `SessionStoreError`
 * (`corrupt`, `locked`, `io`, `schema-too-new`) with nothing left open.
 */
export function openSqliteDatabase(
  path: string,
  options: { busyTimeoutMs: number; autoCheckpoint: boolean },
  migrations: readonly SqliteMigration[],
): DatabaseSync {
  ensureStoreFolder(path);
  keepDatabaseFilesPrivate(path);
  let db: DatabaseSync | undefined;
  try {
    // `timeout` is SQLite's busy_timeout: wait this long for another connection's lock before failing with "locked".
    db = new DatabaseSync(path, { timeout: options.busyTimeoutMs, enableForeignKeyConstraints: true });
    // WAL lets readers run while a write commits, and makes each commit one sequential append.
    db.exec("PRAGMA journal_mode = WAL");
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a commit survives a crash or SIGKILL of the
    // process (it is in the OS's hands), and the file never corrupts; only a power loss may drop the last commits.
    // FULL would add an fsync, milliseconds, to every turn.
    db.exec("PRAGMA synchronous = NORMAL");
    // Savepoints (one per call in a group commit) keep their undo data in memory, not in a temporary file.
    db.exec("PRAGMA temp_store = MEMORY");
    // With a checkpointer thread, commits never checkpoint (and fsync) on the event loop.
    if (!options.autoCheckpoint) db.exec("PRAGMA wal_autocheckpoint = 0");
    applyMigrations(db, migrations, path);
    return db;
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Closing a connection that failed to open has nothing to report.
    }
    throw translateSqliteError(error, path);
  }
}

/**
 * Creates the folder of a store file (nothing for `:memory:`), readable by its owner only (0700) when it is new.
 * Contract: throws `SessionStoreError` `io` when it cannot.
 */
export function ensureStoreFolder(path: string): void {
  if (path === ":memory:") return;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new SessionStoreError("io", `Cannot create the folder for the session store at ${path}: ${String(error)}`, {
      path,
      cause: error,
    });
  }
}
