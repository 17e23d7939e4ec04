import type { ClaimDueOptions, OutboxEntry, OutboxFailure, StoredRow } from "@chorus/store";
import {
  checkLimit,
  notFound,
  OUTBOX_COLUMNS_BUT_JSON,
  outboxFromRow,
  outboxFromRowWithLazyPayload,
  RECLAIMED_IN_FLIGHT_ERROR,
  SessionStoreError,
  staleClaimBefore,
} from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";

// A hot statement with a column list spliced in: built once, so that the statement cache's key is one string.
const MARK_OUTBOX_SENT = `UPDATE outbox SET status = 'sent', platform_message_ids = ?, last_error = NULL, updated_at = ?
  WHERE id = ? AND status = 'in-flight' RETURNING ${OUTBOX_COLUMNS_BUT_JSON}`;

/** Claims the pending entry `id` for a send (`in-flight`, one more attempt); undefined if it is not pending. */
export function claimOutboxEntry(sqlite: SqliteContext, id: number): OutboxEntry | undefined {
  const row = sqlite
    .sql(
      `UPDATE outbox SET status = 'in-flight', attempts = attempts + 1, updated_at = ?
       WHERE id = ? AND status = 'pending' RETURNING *`,
    )
    .get(sqlite.now(), id);
  return row === undefined ? undefined : outboxFromRow(row);
}

/**
 * Claims up to `limit` entries due now, oldest first, and (with `reclaimInFlightAfterMs`) in-flight entries whose
 * claim is that old, marking those with `RECLAIMED_IN_FLIGHT_ERROR`.
 */
export function claimDueOutbox(sqlite: SqliteContext, limit: number, options?: ClaimDueOptions): OutboxEntry[] {
  const max = checkLimit(limit) ?? 1;
  const now = sqlite.now();
  // ?3 null: pending entries only; else also in-flight entries whose claim is at least that old (a lost write).
  const rows = sqlite
    .sql(
      `UPDATE outbox SET status = 'in-flight', attempts = attempts + 1, updated_at = ?1,
         last_error = CASE WHEN status = 'in-flight' THEN ?4 ELSE last_error END
       WHERE id IN (SELECT id FROM outbox WHERE (status = 'pending' AND next_attempt_at <= ?1)
         OR (?3 IS NOT NULL AND status = 'in-flight' AND updated_at <= ?3) ORDER BY id LIMIT ?2)
       RETURNING *`,
    )
    .all(now, max, staleClaimBefore(now, options?.reclaimInFlightAfterMs) ?? null, RECLAIMED_IN_FLIGHT_ERROR);
  return rows.map(outboxFromRow).sort((a, b) => a.id - b.id);
}

/** Marks the in-flight entry `id` sent with the platform's message ids; `not-found` or `invalid-state` otherwise. */
export function markOutboxSent(sqlite: SqliteContext, id: number, platformMessageIds: readonly string[]): OutboxEntry {
  const ids = JSON.stringify(platformMessageIds);
  const row = sqlite.sql(MARK_OUTBOX_SENT).get(ids, sqlite.now(), id);
  if (row === undefined) {
    requireInFlight(sqlite, id);
    throw new SessionStoreError("invalid-state", `Outbox entry ${id} is not in-flight.`);
  }
  // Senders rarely look at the entry they just marked sent: its payload is parsed only if read.
  return outboxFromRowWithLazyPayload(row, [...platformMessageIds]);
}

/** Ends a failed send of the in-flight entry `id`: pending again at `retryAt`, or failed for good without one. */
export function markOutboxFailed(sqlite: SqliteContext, id: number, failure: OutboxFailure): OutboxEntry {
  requireInFlight(sqlite, id);
  const row = sqlite
    .sql(
      `UPDATE outbox SET status = ?, last_error = ?, next_attempt_at = coalesce(?, next_attempt_at), updated_at = ?
       WHERE id = ? RETURNING *`,
    )
    .get(
      failure.retryAt === undefined ? "failed" : "pending",
      failure.error,
      failure.retryAt ?? null,
      sqlite.now(),
      id,
    );
  return outboxFromRow(row as StoredRow);
}

/** Puts every in-flight entry back to pending, due now (at start-up: their sender is gone); returns them. */
export function requeueInFlightOutbox(sqlite: SqliteContext): OutboxEntry[] {
  const rows = sqlite
    .sql(
      `UPDATE outbox SET status = 'pending', next_attempt_at = ?1, updated_at = ?1 WHERE status = 'in-flight'
       RETURNING *`,
    )
    .all(sqlite.now());
  return rows.map(outboxFromRow).sort((a, b) => a.id - b.id);
}

function requireInFlight(sqlite: SqliteContext, id: number): void {
  const row = sqlite.sql("SELECT status FROM outbox WHERE id = ?").get(id);
  if (row === undefined) throw notFound("outbox entry", id);
  if (row.status !== "in-flight") {
    throw new SessionStoreError("invalid-state", `Outbox entry ${id} is ${String(row.status)}, not in-flight.`);
  }
}
