import { ChannelError } from "@chorus/channel";
import type { OutboxEntry } from "@chorus/store";
import { isSessionStoreError } from "@chorus/store";

/** The entry's channel is not running (it could not start yet, or was removed). */
export class ChannelNotRunningError extends Error {
  override readonly name = "ChannelNotRunningError";
}

/** A delivery that can never succeed (a malformed payload). */
export class PermanentDeliveryError extends Error {
  override readonly name = "PermanentDeliveryError";
}

/** A store write refused because the entry is not this sender's to settle any more (settled, reclaimed, gone). */
export function settledElsewhere(error: unknown): boolean {
  return isSessionStoreError(error, "invalid-state") || isSessionStoreError(error, "not-found");
}

/** A failure that goes away by itself: the platform unreachable or busy, or the channel not (yet) running. */
export function isPassing(error: unknown): boolean {
  return error instanceof ChannelNotRunningError || (error instanceof ChannelError && error.retryable);
}

/** What the dispatcher's retry limits are (its options' defaults applied). */
export interface RetryLimits {
  readonly baseRetryMs: number;
  readonly maxAttempts: number;
  readonly transientRetryWindowMs: number;
}

/**
 * After a failed delivery: whether it is over (a permanent error, or its retries used up — a `subagent-result` never
 * is), and when it is tried next (the platform's retry-after, else a doubling backoff up to a minute).
 */
export function retryPlan(
  entry: OutboxEntry,
  error: unknown,
  now: number,
  limits: RetryLimits,
): { readonly permanent: boolean; readonly retryAfterMs: number } {
  const backoff = Math.min(60_000, limits.baseRetryMs * 2 ** Math.max(0, entry.attempts - 1));
  const retryAfterMs = error instanceof ChannelError && error.retryAfterMs !== undefined ? error.retryAfterMs : backoff;
  if (entry.kind === "subagent-result") return { permanent: false, retryAfterMs };
  return { permanent: givesUp(entry, error, now, limits), retryAfterMs };
}

function givesUp(entry: OutboxEntry, error: unknown, now: number, limits: RetryLimits): boolean {
  if (error instanceof PermanentDeliveryError) return true;
  if (error instanceof ChannelError && !error.retryable) return true;
  if (isPassing(error)) return now - entry.createdAt >= limits.transientRetryWindowMs;
  return entry.attempts >= limits.maxAttempts;
}
