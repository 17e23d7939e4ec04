/** `session_start_limit` of Discord's `GET /gateway/bot`: the bot's daily IDENTIFY budget. */
export interface SessionStartLimit {
  readonly total: number;
  readonly remaining: number;
  /** Milliseconds until `remaining` is `total` again. */
  readonly reset_after: number;
  readonly max_concurrency: number;
}

/** What to do before an IDENTIFY: go ahead, or wait `retryAfterMs` (the budget is spent down to the reserve). */
export type IdentifyBudgetVerdict =
  | { readonly kind: "identify" }
  | { readonly kind: "wait"; readonly retryAfterMs: number; readonly reserve: number };

/** The shortest wait before the budget is asked again, so a `reset_after` of 0 cannot make a tight loop. */
const MIN_RETRY_MS = 1000;

/**
 * Whether a shard may IDENTIFY now. Discord resets the bot's token when it IDENTIFIES beyond `remaining`; a check and
 * its IDENTIFY are not one step, and up to `max_concurrency` IDENTIFYs of the bot can be under way at once across a
 * cluster (one per bucket slot), so that many are kept back: an IDENTIFY goes ahead only while `remaining` exceeds
 * `max_concurrency`.
 * Contract: pure; "wait" carries `reset_after` (at least a second).
 * @example identifyBudgetVerdict({ total: 1000, remaining: 0, reset_after: 60_000, max_concurrency: 1 }) // wait 60 s
 */
export function identifyBudgetVerdict(limit: SessionStartLimit): IdentifyBudgetVerdict {
  const reserve = Math.max(1, limit.max_concurrency);
  if (limit.remaining > reserve) return { kind: "identify" };
  return { kind: "wait", retryAfterMs: Math.max(MIN_RETRY_MS, limit.reset_after), reserve };
}

/** "4 h 0 min", "12 s": a wait as an operator reads it in a log. */
export function describeWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
