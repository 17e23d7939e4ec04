import { checkLimit } from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";

/** Deletes sent entries last updated before `before`, at most `limit` of them (all when unset); returns how many. */
export function pruneSentOutbox(sqlite: SqliteContext, before: number, limit?: number): number {
  const max = checkLimit(limit);
  if (max === undefined) {
    return Number(sqlite.sql("DELETE FROM outbox WHERE status = 'sent' AND updated_at < ?").run(before).changes);
  }
  // The oldest `max` through the index of sent entries by age: each step touches only what it removes.
  return Number(
    sqlite
      .sql(
        `DELETE FROM outbox WHERE id IN
           (SELECT id FROM outbox WHERE status = 'sent' AND updated_at < ? ORDER BY updated_at LIMIT ?)`,
      )
      .run(before, max).changes,
  );
}
