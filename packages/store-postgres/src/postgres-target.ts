import { SessionStoreError } from "@chorus/gateway/store";

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
  const database =
    decodeURIComponent(parsed.pathname.replace(/^\//, "")) || decodeURIComponent(parsed.username) || "postgres";
  return { url, description: `${host}:${port}/${database}` };
}

/** Removes `secret` (and its URL-encoded form) from `text`. Contract: the result never contains either. */
export function withoutSecret(text: string, secret: string | undefined): string {
  if (secret === undefined || secret === "") return text;
  return text.split(secret).join("***").split(encodeURIComponent(secret)).join("***");
}

/** The password in a connection URL, if any (decoded). */
export function passwordOf(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password === "" ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}
