import type { SpendBooking, SpendFilter, SpendHold, SpendHoldResult, SpendLimit, SpendRow } from "@chorus/store";
import { holdLimits, mergeBookings, type StoredRow, spendRowFromRow, zeroSpendRow } from "@chorus/store";
import type { Db } from "../query-runner.js";
import type { StoreContext } from "./store-context.js";

// The spend ledger in PostgreSQL, shared by every gateway of a cluster. A hold is the atomic
// "reserve if spent + reserved + this ≤ limit" of each budget's row: one INSERT … ON CONFLICT DO UPDATE … WHERE
// per row, which takes the row's lock, so two gateways holding against one budget run one after the other and the
// second sees the first's reservation. Rows are always locked in (kind, subject, period) order, so holds and
// settlements never wait for each other in a circle.

/** Reserves in one row if it fits, and lists the hold; one statement. Contract: true when held. */
async function holdRow(db: Db, ctx: StoreContext, hold: SpendHold, limit: SpendLimit): Promise<boolean> {
  const { rows } = await db.query(
    `WITH fit AS (
       INSERT INTO spend_ledger AS l (kind, subject, period, reserved_tokens, reserved_cost, updated_at)
       SELECT $1, $2, $3, $4::bigint, $5::float8, $9::bigint
       WHERE ($6::bigint IS NULL OR $4::bigint <= $6::bigint) AND ($7::float8 IS NULL OR $5::float8 <= $7::float8)
       ON CONFLICT (kind, subject, period) DO UPDATE
         SET reserved_tokens = l.reserved_tokens + excluded.reserved_tokens,
             reserved_cost = l.reserved_cost + excluded.reserved_cost,
             updated_at = excluded.updated_at
         WHERE ($6::bigint IS NULL OR l.tokens + l.reserved_tokens + excluded.reserved_tokens <= $6::bigint)
           AND ($7::float8 IS NULL OR l.cost + l.reserved_cost + excluded.reserved_cost <= $7::float8)
       RETURNING kind
     )
     INSERT INTO spend_holds (id, kind, subject, period, tokens, cost, held_until)
     SELECT $8, $1, $2, $3, $4::bigint, $5::float8, $10::bigint FROM fit
     RETURNING id`,
    [
      limit.kind,
      limit.subject,
      limit.period,
      hold.tokens,
      hold.cost,
      limit.maxTokens ?? null,
      limit.maxCost ?? null,
      hold.id,
      ctx.now(),
      hold.heldUntil,
    ],
  );
  return rows.length > 0;
}

/** Frees the lapsed holds of one row (their process died before settling). Contract: true when any was freed. */
async function releaseLapsed(db: Db, ctx: StoreContext, limit: SpendLimit): Promise<boolean> {
  const now = ctx.now();
  const { rowCount } = await db.query(
    `WITH gone AS (
       DELETE FROM spend_holds WHERE kind = $1 AND subject = $2 AND period = $3 AND held_until < $4
       RETURNING tokens, cost
     )
     UPDATE spend_ledger
       SET reserved_tokens = GREATEST(0, reserved_tokens - (SELECT sum(tokens) FROM gone)),
           reserved_cost = GREATEST(0, reserved_cost - (SELECT sum(cost) FROM gone)),
           updated_at = $4
     WHERE kind = $1 AND subject = $2 AND period = $3 AND EXISTS (SELECT 1 FROM gone)`,
    [limit.kind, limit.subject, limit.period, now],
  );
  return (rowCount ?? 0) > 0;
}

async function readRow(db: Db, ctx: StoreContext, limit: SpendLimit): Promise<SpendRow> {
  const { rows } = await db.query("SELECT * FROM spend_ledger WHERE kind = $1 AND subject = $2 AND period = $3", [
    limit.kind,
    limit.subject,
    limit.period,
  ]);
  return rows[0] === undefined ? zeroSpendRow(limit, ctx.now()) : spendRowFromRow(rows[0] as StoredRow);
}

async function holdOrRelease(db: Db, ctx: StoreContext, hold: SpendHold, limit: SpendLimit): Promise<boolean> {
  if (await holdRow(db, ctx, hold, limit)) return true;
  return (await releaseLapsed(db, ctx, limit)) && (await holdRow(db, ctx, hold, limit));
}

/** `SessionStore.holdSpend`: one statement for one limit; several in one transaction, undone when one refuses. */
export async function holdSpend(db: Db, ctx: StoreContext, hold: SpendHold): Promise<SpendHoldResult> {
  const limits = holdLimits(hold);
  const [only] = limits;
  if (only === undefined) return { ok: true };
  if (limits.length === 1) {
    if (await holdOrRelease(db, ctx, hold, only)) return { ok: true };
    return { ok: false, limit: only, row: await readRow(db, ctx, only) };
  }
  return db.atomically(async (tx) => {
    for (const limit of limits) {
      if (await holdOrRelease(tx, ctx, hold, limit)) continue;
      await settleSpend(tx, ctx, hold.id, []);
      return { ok: false, limit, row: await readRow(tx, ctx, limit) };
    }
    return { ok: true };
  });
}

/**
 * `SessionStore.settleSpend` in one statement: frees hold `id`'s reservations and adds the bookings, each row once,
 * in lock order. `recordSpend` is the same statement with no hold.
 */
export async function settleSpend(
  db: Db,
  ctx: StoreContext,
  id: string,
  bookings: readonly SpendBooking[],
): Promise<void> {
  const merged = mergeBookings(bookings);
  await db.query(
    `WITH gone AS (
       DELETE FROM spend_holds WHERE id = $1 RETURNING kind, subject, period, tokens, cost
     ),
     changes AS (
       SELECT b.kind COLLATE "C" AS kind, b.subject COLLATE "C" AS subject, b.period COLLATE "C" AS period,
              b.tokens, b.cost, 0::bigint AS freed_tokens, 0::float8 AS freed_cost
       FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::float8[]) AS b(kind, subject, period, tokens, cost)
       UNION ALL
       SELECT kind, subject, period, 0::bigint, 0::float8, tokens, cost FROM gone
     )
     INSERT INTO spend_ledger AS l (kind, subject, period, tokens, cost, reserved_tokens, reserved_cost, updated_at)
     SELECT kind, subject, period, sum(tokens), sum(cost), -sum(freed_tokens), -sum(freed_cost), $7::bigint
     FROM changes GROUP BY kind, subject, period ORDER BY kind, subject, period
     ON CONFLICT (kind, subject, period) DO UPDATE
       SET tokens = l.tokens + excluded.tokens, cost = l.cost + excluded.cost,
           reserved_tokens = GREATEST(0, l.reserved_tokens + excluded.reserved_tokens),
           reserved_cost = GREATEST(0, l.reserved_cost + excluded.reserved_cost),
           updated_at = excluded.updated_at`,
    [
      id,
      merged.map((booking) => booking.kind),
      merged.map((booking) => booking.subject),
      merged.map((booking) => booking.period),
      merged.map((booking) => booking.tokens),
      merged.map((booking) => booking.cost),
      ctx.now(),
    ],
  );
}

/** `SessionStore.recordSpend`: the settle statement with no hold (hold ids are never empty). */
export function recordSpend(db: Db, ctx: StoreContext, bookings: readonly SpendBooking[]): Promise<void> {
  return settleSpend(db, ctx, "", bookings);
}

/** `SessionStore.listSpend`. */
export async function listSpend(db: Db, filter: SpendFilter = {}): Promise<SpendRow[]> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  const add = (condition: string, value: string | undefined) => {
    if (value === undefined) return;
    values.push(value);
    conditions.push(`${condition} $${values.length}`);
  };
  add("kind =", filter.kind);
  add("subject =", filter.subject);
  add("period >=", filter.fromPeriod);
  add("period <=", filter.toPeriod);
  const where = conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`;
  const { rows } = await db.query(`SELECT * FROM spend_ledger${where} ORDER BY kind, subject, period`, values);
  return rows.map((row) => spendRowFromRow(row as StoredRow));
}
