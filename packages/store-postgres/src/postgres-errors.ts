import { SessionStoreError } from "@chorus/store";
import type { PostgresTarget } from "./postgres-target.js";

/** Node socket errors that mean "the server cannot be reached (now)". */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** SQLSTATE classes and codes that say the database, not the query, is the problem. */
function isConnectionSqlState(code: string): boolean {
  // 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now; 53: insufficient resources.
  return code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code.startsWith("53");
}

/** True when `error` says Postgres could not be reached or the connection broke (rather than a query being wrong). */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (NETWORK_CODES.has(code) || isConnectionSqlState(code))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|timeout expired|Query read timeout|connection timeout|Client has encountered a connection error/i.test(
    error.message,
  );
}

/**
 * Turns a node-postgres failure into a `SessionStoreError` whose message says what to do, naming `host:port/database`
 * and the cause, never the password. Contract: returns any other error (including `SessionStoreError`s) unchanged.
 */
export function translatePostgresError(error: unknown, target: PostgresTarget): unknown {
  if (error instanceof SessionStoreError || !(error instanceof Error)) return error;
  const details = { path: target.description, cause: error };
  const code = (error as { code?: unknown }).code;
  if (isConnectionFailure(error)) {
    return new SessionStoreError(
      "io",
      `Cannot reach PostgreSQL at ${target.description} (${error.message}). Check that the server is running and ` +
        "reachable; the store reconnects by itself once it is.",
      details,
    );
  }
  if (code === "28P01" || code === "28000") {
    return new SessionStoreError(
      "io",
      `PostgreSQL at ${target.description} refused the login (${error.message}). Check the user and password in the store URL.`,
      details,
    );
  }
  if (code === "3D000") {
    return new SessionStoreError(
      "io",
      `PostgreSQL at ${target.description} has no such database (${error.message}). Create it first (createdb).`,
      details,
    );
  }
  if (code === "40001" || code === "40P01" || code === "55P03") {
    return new SessionStoreError(
      "locked",
      `PostgreSQL at ${target.description} could not take a lock in time (${error.message}); try again.`,
      details,
    );
  }
  if (code === "57014") {
    return new SessionStoreError(
      "io",
      `A PostgreSQL statement at ${target.description} took too long and was cancelled (${error.message}).`,
      details,
    );
  }
  return error;
}
