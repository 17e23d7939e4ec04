/** What went wrong in a session store call. */
export type SessionStoreErrorCode =
  /** The session, run or outbox entry does not exist. */
  | "not-found"
  /** A record with that id already exists. */
  | "conflict"
  /** The record is not in a state that allows the change (e.g. ending a run that already ended). */
  | "invalid-state"
  /** The input cannot be stored (e.g. a message or payload that is not JSON). */
  | "invalid-input"
  /** The database file was written by a newer Chorus; this code cannot read it safely. */
  | "schema-too-new"
  /** The database file is not a SQLite database or is damaged. */
  | "corrupt"
  /** Another process holds the database's write lock for longer than the busy timeout. */
  | "locked"
  /** Another process (or store) has the database open as its owner: one gateway per store file. */
  | "in-use"
  /** The write came from an instance whose ownership of the session was taken over (its lease epoch moved on). */
  | "fenced"
  /** The file or its folder cannot be opened, read or written. */
  | "io"
  /** The store (or the transaction handle) was used after it was closed. */
  | "closed";

/**
 * A failed session store call.
 * Contract: `code` is stable for programs; `message` says what happened and what to do, for people, without a stack trace needed.
 */
export class SessionStoreError extends Error {
  override readonly name = "SessionStoreError";
  readonly code: SessionStoreErrorCode;
  /** The database file, for errors about the file itself. */
  readonly path: string | undefined;
  /** For `schema-too-new`: the schema version found in the file. */
  readonly fileVersion: number | undefined;
  /** For `schema-too-new`: the newest schema version this code knows. */
  readonly codeVersion: number | undefined;

  constructor(
    code: SessionStoreErrorCode,
    message: string,
    details: { path?: string; fileVersion?: number; codeVersion?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.path = details.path;
    this.fileVersion = details.fileVersion;
    this.codeVersion = details.codeVersion;
  }
}

/**
 * True when the store did not answer (unreachable, or busy past its timeout): the same call may go through later.
 * A call it refused (bad input, fenced, not found) stays refused.
 */
export function isTransientStoreError(error: unknown): boolean {
  return isSessionStoreError(error, "io") || isSessionStoreError(error, "locked");
}

/** True when `error` is a `SessionStoreError` with `code` (or any code when omitted). */
export function isSessionStoreError(error: unknown, code?: SessionStoreErrorCode): error is SessionStoreError {
  return error instanceof SessionStoreError && (code === undefined || error.code === code);
}
