import { SessionKeyError } from "./session-key-error.js";

/** Agent, account and channel ids: lower-case, short, and never in need of encoding. */
export const KEY_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

// With the u flag a valid surrogate pair is one code point, so only lone halves match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Percent-encodes one platform id so that it never contains ":" and so that decoding gives it back exactly.
 * Contract: throws SessionKeyError("bad-encoding") for strings that are not well-formed UTF-16 (lone surrogates).
 */
export function encodeKeyComponent(value: string, what: string): string {
  if (value.length === 0) throw new SessionKeyError("empty-component", `${what} is empty`);
  if (LONE_SURROGATE.test(value)) {
    throw new SessionKeyError("bad-encoding", `${what} contains a lone surrogate and cannot be encoded`);
  }
  return encodeURIComponent(value);
}

/**
 * Decodes one component of a key. Only the canonical encoding is accepted, so every id has exactly one key.
 * Contract: returns the decoded id or throws SessionKeyError naming `what` and the problem.
 */
export function decodeKeyComponent(raw: string, what: string, key: string): string {
  if (raw.length === 0) throw new SessionKeyError("empty-component", `${what} is empty`, key);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new SessionKeyError("bad-encoding", `${what} ${JSON.stringify(raw)} has invalid percent-encoding`, key);
  }
  if (encodeURIComponent(decoded) !== raw) {
    throw new SessionKeyError(
      "non-canonical-encoding",
      `${what} ${JSON.stringify(raw)} is not canonically encoded (expected ${JSON.stringify(encodeURIComponent(decoded))})`,
      key,
    );
  }
  return decoded;
}

/** Checks an agent, account or channel id against KEY_ID_PATTERN. Contract: throws SessionKeyError when it does not match. */
export function assertKeyId(
  value: string,
  code: "bad-agent-id" | "bad-account-id" | "bad-channel",
  what: string,
  key?: string,
): void {
  if (!KEY_ID_PATTERN.test(value)) {
    throw new SessionKeyError(code, `${what} ${JSON.stringify(value)} must match ${KEY_ID_PATTERN.source}`, key);
  }
}
