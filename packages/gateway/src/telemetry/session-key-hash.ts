import { createHash } from "node:crypto";

/** How a session key appears on spans: a short SHA-256 (default) or as is. */
export type SessionKeyMode = "hashed" | "verbatim";

/**
 * The session key as a span attribute. Contract: "hashed" gives 16 hex characters of SHA-256, stable across restarts,
 * so one session's traces can be found without the chat and user ids the key holds.
 */
export function sessionKeyAttribute(key: string, mode: SessionKeyMode): string {
  if (mode === "verbatim") return key;
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}
