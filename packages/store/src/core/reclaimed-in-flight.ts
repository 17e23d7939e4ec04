/** The `lastError` an in-flight entry reclaimed by `claimDueOutbox` gets: its send may or may not have happened. */
export const RECLAIMED_IN_FLIGHT_ERROR = "outcome unknown: its claim was older than the in-flight bound";

/**
 * The `updatedAt` at or before which an in-flight entry's claim counts as stale, or undefined when none is reclaimed.
 * Contract: a bound below 0 is treated as 0.
 */
export function staleClaimBefore(now: number, reclaimInFlightAfterMs: number | undefined): number | undefined {
  return reclaimInFlightAfterMs === undefined ? undefined : now - Math.max(0, reclaimInFlightAfterMs);
}
