/** What exactly is wrong with a session key or with the parts given to build one. */
export type SessionKeyErrorCode =
  | "empty"
  | "bad-shape"
  | "bad-agent-id"
  | "bad-account-id"
  | "bad-channel"
  | "empty-component"
  | "bad-encoding"
  | "non-canonical-encoding"
  | "bad-depth"
  | "depth-mismatch";

/**
 * A session key that cannot be parsed, or parts that cannot form a key.
 * Contract: `code` is stable for programs; `message` names the offending part for people.
 */
export class SessionKeyError extends Error {
  override readonly name = "SessionKeyError";
  readonly code: SessionKeyErrorCode;
  /** The key (or key fragment) being processed when the problem was found. */
  readonly key: string | undefined;

  constructor(code: SessionKeyErrorCode, message: string, key?: string) {
    super(key === undefined ? message : `${message} (in session key ${quoteKey(key)})`);
    this.code = code;
    this.key = key;
  }
}

// Keys can be long (deep sub-agent lineage); a message only needs enough to recognise the key.
function quoteKey(key: string): string {
  return key.length <= 200 ? JSON.stringify(key) : `${JSON.stringify(key.slice(0, 200))}… (${key.length} characters)`;
}
