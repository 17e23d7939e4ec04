import type { OutboxEntry, OutboxFilter, OutboxStatus } from "@chorus/store";
import { outboxFromRow, statusList } from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";
import { Where } from "./where-clause.js";

const OUTBOX_STATUSES: readonly OutboxStatus[] = ["pending", "in-flight", "sent", "failed"];

/** The outbox entry `id`, or undefined. */
export function getOutboxEntry(sqlite: SqliteContext, id: number): OutboxEntry | undefined {
  const row = sqlite.sql("SELECT * FROM outbox WHERE id = ?").get(id);
  return row === undefined ? undefined : outboxFromRow(row);
}

/** The outbox entries `filter` picks, in id order. */
export function listOutbox(sqlite: SqliteContext, filter: OutboxFilter = {}): OutboxEntry[] {
  const where = new Where();
  where.oneOf("status", statusList(filter.status), OUTBOX_STATUSES);
  if (filter.sessionKey !== undefined) where.equals("session_key", filter.sessionKey);
  const sql = `SELECT * FROM outbox${where.clause()} ORDER BY id${where.limit(filter.limit)}`;
  return sqlite
    .sql(sql)
    .all(...where.values)
    .map(outboxFromRow);
}
