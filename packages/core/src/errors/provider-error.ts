/**
 * How a failed model call is classified, so the retry strategy can decide.
 * - rate_limit, overloaded, server, network, timeout: transient, retried by default
 * - auth, invalid_request: never retried
 * - context_overflow: the request was too large; the loop compacts and retries
 * - aborted: the caller cancelled
 */
export type ProviderErrorKind =
  | "rate_limit"
  | "overloaded"
  | "server"
  | "network"
  | "timeout"
  | "auth"
  | "invalid_request"
  | "context_overflow"
  | "aborted"
  | "unknown";

/** A classified provider failure, carried on an errored AssistantMessage. */
export interface ProviderErrorInfo {
  kind: ProviderErrorKind;
  message: string;
  /** HTTP status, when there was one. */
  status?: number;
  /** The provider's requested wait (retry-after-ms / retry-after), in milliseconds. */
  retryAfterMs?: number;
  /** True when some output had streamed before the failure. */
  partialOutput?: boolean;
}
