import type { HeldSpend, SpendKind, SpendTable, StoredRow } from "@chorus/store";
import { spendRowFromRow } from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";
import { Where } from "./where-clause.js";

/** A ledger row's key, as one condition (its primary key and the holds' index both start with it). */
const KEY = "kind = ? AND subject = ? AND period = ?";

/**
 * The spend ledger's rows and holds as the `SpendTable` that `spendLedgerOps` runs the ledger's rules over: only
 * the reads and writes are SQLite's; which holds fit and how they settle is shared with the memory store.
 */
export function sqliteSpendTable(sqlite: SqliteContext): SpendTable {
  return {
    row: (key) => {
      const row = sqlite.sql(`SELECT * FROM spend_ledger WHERE ${KEY}`).get(key.kind, key.subject, key.period);
      return row === undefined ? undefined : spendRowFromRow(row as StoredRow);
    },
    write: (row) => {
      sqlite
        .sql(
          `INSERT INTO spend_ledger (kind, subject, period, tokens, cost, reserved_tokens, reserved_cost, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (kind, subject, period) DO UPDATE SET tokens = excluded.tokens, cost = excluded.cost,
             reserved_tokens = excluded.reserved_tokens, reserved_cost = excluded.reserved_cost,
             updated_at = excluded.updated_at`,
        )
        .run(
          row.kind,
          row.subject,
          row.period,
          row.tokens,
          row.cost,
          row.reservedTokens,
          row.reservedCost,
          row.updatedAt,
        );
    },
    add: (booking, now) => {
      sqlite
        .sql(
          `INSERT INTO spend_ledger (kind, subject, period, tokens, cost, updated_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (kind, subject, period) DO UPDATE SET tokens = tokens + excluded.tokens,
             cost = cost + excluded.cost, updated_at = excluded.updated_at`,
        )
        .run(booking.kind, booking.subject, booking.period, booking.tokens, booking.cost, now);
    },
    list: (filter) => {
      const where = new Where();
      if (filter.kind !== undefined) where.equals("kind", filter.kind);
      if (filter.subject !== undefined) where.equals("subject", filter.subject);
      if (filter.fromPeriod !== undefined) where.raw("period >= ?", filter.fromPeriod);
      if (filter.toPeriod !== undefined) where.raw("period <= ?", filter.toPeriod);
      return sqlite
        .sql(`SELECT * FROM spend_ledger${where.clause()} ORDER BY kind, subject, period`)
        .all(...where.values)
        .map((row) => spendRowFromRow(row as StoredRow));
    },
    holdsOf: (id) => sqlite.sql("SELECT * FROM spend_holds WHERE id = ?").all(id).map(heldFrom),
    lapsedHolds: (key, now) =>
      sqlite
        .sql(`SELECT * FROM spend_holds WHERE ${KEY} AND held_until < ?`)
        .all(key.kind, key.subject, key.period, now)
        .map(heldFrom),
    addHold: (hold) => {
      sqlite
        .sql(
          `INSERT INTO spend_holds (id, kind, subject, period, tokens, cost, held_until) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(hold.id, hold.kind, hold.subject, hold.period, hold.tokens, hold.cost, hold.heldUntil);
    },
    deleteHold: (hold) => {
      sqlite.sql(`DELETE FROM spend_holds WHERE id = ? AND ${KEY}`).run(hold.id, hold.kind, hold.subject, hold.period);
    },
  };
}

function heldFrom(row: unknown): HeldSpend {
  const held = row as StoredRow;
  return {
    id: String(held.id),
    kind: String(held.kind) as SpendKind,
    subject: String(held.subject),
    period: String(held.period),
    tokens: Number(held.tokens),
    cost: Number(held.cost),
    heldUntil: Number(held.held_until),
  };
}
