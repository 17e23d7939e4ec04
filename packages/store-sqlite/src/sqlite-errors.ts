import { SessionStoreError } from "@chorus/store";

/** SQLite primary result codes that say something about the file rather than the query. */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

/**
 * Turns a `node:sqlite` error about the database file into a `SessionStoreError` whose message says what to do.
 * Contract: returns any other error unchanged (including `SessionStoreError`s).
 */
export function translateSqliteError(error: unknown, path: string): unknown {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== "ERR_SQLITE_ERROR") return error;
  const errcode = (error as { errcode?: unknown }).errcode;
  if (typeof errcode !== "number") return error;
  const primary = errcode & 0xff;
  const details = { path, cause: error };
  switch (primary) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return new SessionStoreError(
        "locked",
        `The session store at ${path} is locked by another process (${error.message}). ` +
          "Stop the other Chorus gateway using this file, or give this one its own file.",
        details,
      );
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return new SessionStoreError(
        "corrupt",
        `The session store at ${path} is not a valid SQLite database or is damaged (${error.message}). ` +
          "Restore it from a backup, or move it aside to start with an empty store.",
        details,
      );
    case SQLITE_READONLY:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
      return new SessionStoreError(
        "io",
        `The session store at ${path} cannot be read or written (${error.message}). ` +
          "Check that the folder exists, is writable, and the disk is not full.",
        details,
      );
    default:
      return error;
  }
}
