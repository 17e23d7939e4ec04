/** Why an attachment could not be downloaded. */
export type AttachmentFetchFailure =
  | "too-large"
  | "expired"
  | "not-found"
  | "forbidden"
  | "host-not-allowed"
  | "network"
  | "unsupported";

/**
 * A failed attachment download. Contract: `reason` is stable; `retryable` says whether the same download may succeed
 * later (a network failure), so a caller keeps or drops its attempt.
 */
export class AttachmentFetchError extends Error {
  override readonly name = "AttachmentFetchError";
  readonly reason: AttachmentFetchFailure;

  constructor(reason: AttachmentFetchFailure, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
  }

  get retryable(): boolean {
    return this.reason === "network";
  }
}
