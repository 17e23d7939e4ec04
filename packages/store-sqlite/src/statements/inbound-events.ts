import type { InboundEventRef } from "@chorus/store";
import { checkLimit } from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";

/**
 * Remembers an inbound event id for `ttlMs`; false if it was already seen within that time (a redelivery to drop).
 */
export function recordInboundEvent(sqlite: SqliteContext, ref: InboundEventRef, ttlMs: number): boolean {
  const now = sqlite.now();
  // One statement: insert, or refresh an id whose TTL ran out; an id seen within the TTL changes nothing.
  const result = sqlite
    .sql(
      `INSERT INTO inbound_events (channel, account_id, event_id, seen_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (channel, account_id, event_id) DO UPDATE SET seen_at = excluded.seen_at
       WHERE inbound_events.seen_at <= ?`,
    )
    .run(ref.channel, ref.accountId, ref.eventId, now, now - ttlMs);
  return Number(result.changes) > 0;
}

/** Forgets event ids older than `ttlMs`, at most `limit` of them (all when unset); returns how many. */
export function pruneInboundEvents(sqlite: SqliteContext, ttlMs: number, limit?: number): number {
  const max = checkLimit(limit);
  const cutoff = sqlite.now() - ttlMs;
  if (max === undefined) {
    return Number(sqlite.sql("DELETE FROM inbound_events WHERE seen_at <= ?").run(cutoff).changes);
  }
  // The oldest `max` through the age index: each step touches only what it removes.
  return Number(
    sqlite
      .sql(
        `DELETE FROM inbound_events WHERE (channel, account_id, event_id) IN
           (SELECT channel, account_id, event_id FROM inbound_events WHERE seen_at <= ? ORDER BY seen_at LIMIT ?)`,
      )
      .run(cutoff, max).changes,
  );
}
