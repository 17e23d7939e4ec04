import { SessionStoreError } from "@chorus/store";

/** Where a store connects, as it may be shown to people: never the password. */
export interface PostgresTarget {
  /** The connection string, with its password: only ever handed to node-postgres. */
  readonly url: string;
  /** `host:port/database`, for messages and logs. */
  readonly description: string;
}

/**
 * Reads a `postgres://` (or `postgresql://`) URL.
 * Contract: throws `SessionStoreError` `invalid-input` for anything else, without echoing the URL (it may hold a password).
 */
export function postgresTarget(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // No cause attached: URL's TypeError carries the input, password included.
    throw new SessionStoreError(
      "invalid-input",
      "The PostgreSQL store URL is not a valid URL (postgres://user@host:5432/database).",
    );
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new SessionStoreError(
      "invalid-input",
      `The PostgreSQL store URL must start with postgres:// or postgresql://, not ${parsed.protocol}//.`,
    );
  }
  const host = parsed.hostname === "" ? "localhost" : parsed.hostname;
  const port = parsed.port === "" ? "5432" : parsed.port;
  // node-postgres's default database is the user's name.
  const database = decoded(parsed.pathname.replace(/^\//, "")) || decoded(parsed.username) || "postgres";
  return { url, description: `${host}:${port}/${database}` };
}

/** A URL part decoded, or as written when its %-escapes are malformed (node-postgres reports that at connect). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
