/** Why a platform refused or failed an operation; the reply layer decides from this whether and when to retry. */
export type ChannelErrorKind =
  | "rate-limited"
  | "too-long"
  | "not-found"
  | "forbidden"
  | "edit-window-expired"
  | "network"
  | "unknown";

/**
 * A failed channel operation.
 * Contract: `kind` is stable; `retryAfterMs` is set for rate limits when the platform said how long to wait;
 * `retryable` says whether repeating the same call later can succeed.
 */
export class ChannelError extends Error {
  override readonly name = "ChannelError";
  readonly kind: ChannelErrorKind;
  readonly retryAfterMs: number | undefined;

  constructor(kind: ChannelErrorKind, message: string, options: { retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.retryAfterMs = options.retryAfterMs;
  }

  get retryable(): boolean {
    return this.kind === "rate-limited" || this.kind === "network";
  }
}
