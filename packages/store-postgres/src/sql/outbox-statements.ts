import type {
  ClaimDueOptions,
  NewOutboxEntry,
  OutboxEntry,
  OutboxFailure,
  OutboxFilter,
  OutboxStatus,
} from "@chorus/store";
import {
  checkLimit,
  notFound,
  OUTBOX_COLUMNS_BUT_JSON,
  outboxFromRow,
  outboxFromRowWithLazyPayload,
  RECLAIMED_IN_FLIGHT_ERROR,
  SessionStoreError,
  staleClaimBefore,
  statusList,
  toStoredJson,
} from "@chorus/store";
import { prepared } from "../prepared-statements.js";
import type { Db } from "../query-runner.js";
import { byKeyOnly } from "./by-key-only.js";
import type { StoreContext } from "./store-context.js";
import { WhereClause } from "./where-clause.js";

const OUTBOX_STATUSES: readonly OutboxStatus[] = ["pending", "in-flight", "sent", "failed"];

/** New entries as column arrays (one statement inserts them all, in order), and what to build the records from. */
export interface OutboxRows {
  readonly entries: readonly NewOutboxEntry[];
  readonly payloads: readonly string[];
  readonly at: number;
  /** `$n` … `$n+4`: session keys, run ids, kinds, payloads, next attempt times. */
  readonly columns: readonly unknown[];
  /** The entries' traceparents (null where none), a parameter of its own (see `insertOutboxSql`). */
  readonly traceparents: readonly (string | null)[];
}

/** Serialises new entries. Contract: throws `invalid-input` for a payload that is not JSON. */
export function outboxRows(ctx: StoreContext, entries: readonly NewOutboxEntry[]): OutboxRows {
  const payloads = entries.map((entry) => toStoredJson(entry.payload, "outbox payload"));
  const at = ctx.now();
  return {
    entries,
    payloads,
    at,
    columns: [
      entries.map((entry) => entry.sessionKey),
      entries.map((entry) => entry.runId ?? null),
      entries.map((entry) => entry.kind),
      payloads,
      entries.map((entry) => entry.nextAttemptAt ?? at),
    ],
    traceparents: entries.map((entry) => entry.traceparent ?? null),
  };
}

/**
 * The INSERT of `outboxRows` columns starting at parameter `$first` (status and attempts as literals), for use alone or
 * as a CTE. `guard` is an extra condition (e.g. `EXISTS (SELECT 1 FROM go)`); `claimer` the parameter naming who
 * claims entries inserted claimed; `traceparents` the parameter of `OutboxRows.traceparents` (default right after
 * the columns and their time). Ids are drawn in input order.
 */
export function insertOutboxSql(
  first: number,
  claimed: boolean,
  guard = "true",
  claimer = "NULL",
  traceparents = `$${first + 6}`,
): string {
  const [keys, runs, kinds, payloads, next, at] = [0, 1, 2, 3, 4, 5].map((offset) => `$${first + offset}`);
  // Pending entries have no claimer; the parameter is still named, so that both variants take the same parameters.
  const status = claimed
    ? `'in-flight', 1, ${claimer}::text`
    : `'pending', 0, (CASE WHEN false THEN ${claimer}::text END)`;
  return `INSERT INTO outbox (session_key, run_id, kind, payload, status, attempts, claimed_by, created_at, updated_at,
      next_attempt_at, traceparent)
    SELECT e.session_key, e.run_id, e.kind, e.payload, ${status}, ${at}, ${at}, e.next_at, e.traceparent
    FROM unnest(${keys}::text[], ${runs}::text[], ${kinds}::text[], ${payloads}::text[], ${next}::bigint[],
        ${traceparents}::text[])
      WITH ORDINALITY AS e (session_key, run_id, kind, payload, next_at, traceparent, ord)
    WHERE ${guard}
    ORDER BY e.ord
    RETURNING id`;
}

/** The records of inserted entries from what was written (no RETURNING row to decode). */
export function insertedOutbox(rows: OutboxRows, ids: readonly number[], claimed: boolean): OutboxEntry[] {
  const sorted = [...ids].sort((a, b) => a - b);
  return rows.entries.map((entry, index) => ({
    id: sorted[index] as number,
    sessionKey: entry.sessionKey,
    ...(entry.runId !== undefined ? { runId: entry.runId } : {}),
    kind: entry.kind,
    // A JSON round trip of the caller's payload, detached from it, as the memory store gives it.
    payload: JSON.parse(rows.payloads[index] as string) as unknown,
    status: claimed ? "in-flight" : "pending",
    attempts: claimed ? 1 : 0,
    createdAt: rows.at,
    updatedAt: rows.at,
    nextAttemptAt: entry.nextAttemptAt ?? rows.at,
    platformMessageIds: [],
    ...(entry.traceparent !== undefined ? { traceparent: entry.traceparent } : {}),
  }));
}

export async function enqueueOutbox(
  db: Db,
  ctx: StoreContext,
  entries: readonly NewOutboxEntry[],
): Promise<OutboxEntry[]> {
  const rows = outboxRows(ctx, entries);
  if (entries.length === 0) return [];
  const result = await db.query(insertOutboxSql(1, false), [...rows.columns, rows.at, rows.traceparents]);
  return insertedOutbox(
    rows,
    result.rows.map((row) => Number(row.id)),
    false,
  );
}

export async function getOutboxEntry(db: Db, id: number): Promise<OutboxEntry | undefined> {
  const { rows } = await db.query("SELECT * FROM outbox WHERE id = $1", [id]);
  return rows[0] === undefined ? undefined : outboxFromRow(rows[0]);
}

export async function claimOutboxEntry(db: Db, ctx: StoreContext, id: number): Promise<OutboxEntry | undefined> {
  const { rows } = await db.query(
    `UPDATE outbox SET status = 'in-flight', attempts = attempts + 1, updated_at = $2, claimed_by = $3
     WHERE id = $1 AND ${byKeyOnly("status = 'pending'")} RETURNING *`,
    [id, ctx.now(), ctx.leaseOwner ?? null],
  );
  return rows[0] === undefined ? undefined : outboxFromRow(rows[0]);
}

export async function claimDueOutbox(
  db: Db,
  ctx: StoreContext,
  limit: number,
  options?: ClaimDueOptions,
): Promise<OutboxEntry[]> {
  const max = checkLimit(limit) ?? 1;
  const now = ctx.now();
  // SKIP LOCKED: an entry another connection is claiming right now is left to it, never claimed twice.
  // In a cluster, only entries of sessions whose lease this instance holds now (checked by the database): each
  // session's replies leave from its owner, in order. With $4, also in-flight entries whose claim is at least that
  // old: their sender's write after the send was lost (a database blip), and nothing else would settle them.
  const { rows } = await db.query(
    `UPDATE outbox SET status = 'in-flight', attempts = attempts + 1, updated_at = $1, claimed_by = $3,
       last_error = CASE WHEN status = 'in-flight' THEN $5 ELSE last_error END
     WHERE id IN (SELECT id FROM outbox WHERE ((status = 'pending' AND next_attempt_at <= $1)
         OR ($4::bigint IS NOT NULL AND status = 'in-flight' AND updated_at <= $4::bigint))
       AND ($3::text IS NULL OR chorus_shard(session_key) IN
         (SELECT shard FROM shard_leases WHERE owner = $3 AND expires_at > chorus_now_ms()))
       ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [
      now,
      max,
      ctx.leaseOwner ?? null,
      staleClaimBefore(now, options?.reclaimInFlightAfterMs) ?? null,
      RECLAIMED_IN_FLIGHT_ERROR,
    ],
  );
  return rows.map(outboxFromRow).sort((a, b) => a.id - b.id);
}

// In a cluster, only the instance that claimed the entry may settle it (one that lost its session meanwhile may not
// mark the new owner's claim).
const BY_CLAIMER = "($4::text IS NULL OR claimed_by IS NOT DISTINCT FROM $4)";

// Its claimer may also mark an entry a takeover put back to pending (its send's outcome unknown there) until the new
// owner claims it again: the claimer knows the send reached the platform, so it is not sent twice.
const MARK_SENT = prepared(
  "mark_outbox_sent",
  `UPDATE outbox SET status = 'sent', platform_message_ids = $2, last_error = NULL, updated_at = $3
  WHERE id = $1 AND ${byKeyOnly(`(status = 'in-flight' AND ${BY_CLAIMER}) OR (status = 'pending' AND claimed_by = $4::text)`)}
  RETURNING ${OUTBOX_COLUMNS_BUT_JSON}`,
);

export async function markOutboxSent(
  db: Db,
  ctx: StoreContext,
  id: number,
  platformMessageIds: readonly string[],
): Promise<OutboxEntry> {
  const { rows } = await db.query(MARK_SENT, [
    id,
    JSON.stringify(platformMessageIds),
    ctx.now(),
    ctx.leaseOwner ?? null,
  ]);
  if (rows[0] === undefined) throw await notInFlight(db, id);
  // Senders rarely look at the entry they just marked sent: its payload is parsed only if read.
  return outboxFromRowWithLazyPayload(rows[0], [...platformMessageIds]);
}

export async function markOutboxFailed(
  db: Db,
  ctx: StoreContext,
  id: number,
  failure: OutboxFailure,
): Promise<OutboxEntry> {
  const { rows } = await db.query(
    `UPDATE outbox SET status = $2, last_error = $3, next_attempt_at = coalesce($5, next_attempt_at), updated_at = $6
     WHERE id = $1 AND ${byKeyOnly(`status = 'in-flight' AND ${BY_CLAIMER}`)} RETURNING *`,
    [
      id,
      failure.retryAt === undefined ? "failed" : "pending",
      failure.error,
      ctx.leaseOwner ?? null,
      failure.retryAt ?? null,
      ctx.now(),
    ],
  );
  if (rows[0] === undefined) throw await notInFlight(db, id);
  return outboxFromRow(rows[0]);
}

/** Why an in-flight-only change found no row. */
async function notInFlight(db: Db, id: number): Promise<SessionStoreError> {
  const { rows } = await db.query("SELECT status, claimed_by FROM outbox WHERE id = $1", [id]);
  if (rows[0] === undefined) return notFound("outbox entry", id);
  if (rows[0].status === "in-flight") {
    return new SessionStoreError(
      "invalid-state",
      `Outbox entry ${id} was claimed by another instance (${String(rows[0].claimed_by)}) after this one lost its session.`,
    );
  }
  return new SessionStoreError("invalid-state", `Outbox entry ${id} is ${String(rows[0].status)}, not in-flight.`);
}

export async function listOutbox(db: Db, filter: OutboxFilter = {}): Promise<OutboxEntry[]> {
  const where = new WhereClause();
  where.oneOf("status", statusList(filter.status), OUTBOX_STATUSES);
  if (filter.sessionKey !== undefined) where.equals("session_key", filter.sessionKey);
  const sql = `SELECT * FROM outbox${where.clause()} ORDER BY id${where.limit(filter.limit)}`;
  const { rows } = await db.query(sql, where.values);
  return rows.map(outboxFromRow);
}

export async function requeueInFlightOutbox(db: Db, ctx: StoreContext): Promise<OutboxEntry[]> {
  const { rows } = await db.query(
    `UPDATE outbox SET status = 'pending', next_attempt_at = $1, updated_at = $1, claimed_by = NULL
     WHERE status = 'in-flight' RETURNING *`,
    [ctx.now()],
  );
  return rows.map(outboxFromRow).sort((a, b) => a.id - b.id);
}

export async function pruneSentOutbox(db: Db, before: number, limit?: number): Promise<number> {
  const max = checkLimit(limit);
  if (max === undefined) {
    return (await db.query("DELETE FROM outbox WHERE status = 'sent' AND updated_at < $1", [before])).rowCount ?? 0;
  }
  // The oldest `max` through the index of sent entries by age: each step touches only what it removes.
  const { rowCount } = await db.query(
    `DELETE FROM outbox WHERE id IN
       (SELECT id FROM outbox WHERE status = 'sent' AND updated_at < $1 ORDER BY updated_at LIMIT $2)`,
    [before, max],
  );
  return rowCount ?? 0;
}
