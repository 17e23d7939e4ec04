import { DatabaseSync } from "node:sqlite";
import { SessionStoreError } from "@chorus/store";
import { keepDatabaseFilesPrivate } from "./private-database-file.js";
import { translateSqliteError } from "./sqlite-errors.js";

/** The lock a store holds on its file for as long as it is open. */
export interface StoreOwnerLock {
  /** The lock file, `<database>.lock`. */
  readonly path: string;
  /** Releases the lock. Contract: idempotent. */
  release(): void;
}

/** SQLite's "busy": another connection holds the lock. */
const SQLITE_BUSY = 5;

/**
 * Makes this store the only owner of the database at `databasePath`: an exclusive OS file lock (SQLite's own, through a
 * tiny companion database `<database>.lock`) held until `release`. A second store on the same file — in another
 * process, or in this one — is refused at once, before it migrates or recovers anything, instead of marking the first
 * one's running turns as interrupted. The OS drops the lock when the process dies, even by SIGKILL, so there is never a
 * stale lock to clean up. The lock file is never deleted: deleting it would let two owners lock two different files.
 * Contract: returns the held lock, or throws `SessionStoreError` `in-use` (someone holds it) or `io`.
 */
export function acquireStoreOwnerLock(databasePath: string): StoreOwnerLock {
  const path = `${databasePath}.lock`;
  let db: DatabaseSync | undefined;
  try {
    keepDatabaseFilesPrivate(path);
    db = new DatabaseSync(path, { timeout: 0 });
    // Nothing is ever written to it: a journal in memory leaves no `-journal` file beside it.
    db.exec("PRAGMA journal_mode = MEMORY");
    // In exclusive locking mode the connection keeps every lock it takes; BEGIN EXCLUSIVE takes the strongest.
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
  } catch (error) {
    try {
      db?.close();
    } catch {
      // A connection that could not lock has nothing to release.
    }
    if ((error as { errcode?: unknown }).errcode === SQLITE_BUSY) {
      throw new SessionStoreError(
        "in-use",
        `The session store at ${databasePath} is in use by another gateway (one store file, one gateway; the lock is ` +
          `${path}). Stop the other one, or give this one its own file.`,
        { path: databasePath, cause: error },
      );
    }
    throw translateSqliteError(error, path);
  }
  const held = db;
  return {
    path,
    release: () => {
      if (held.isOpen) held.close();
    },
  };
}
