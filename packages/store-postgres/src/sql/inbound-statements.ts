import type { InboundEventRef, InboundMessageStored, NewInboundMessage } from "@chorus/store";
import { checkLimit, sessionFromRow, toStoredJson } from "@chorus/store";
import { prepared } from "../prepared-statements.js";
import type { Db } from "../query-runner.js";
import type { StoreContext } from "./store-context.js";

// Insert, or refresh an id whose TTL ran out; an id seen within the TTL changes nothing (no row back).
const RECORD_EVENT = `
  INSERT INTO inbound_events (channel, account_id, event_id, seen_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (channel, account_id, event_id) DO UPDATE SET seen_at = excluded.seen_at
  WHERE inbound_events.seen_at <= $5`;

export async function recordInboundEvent(db: Db, ctx: StoreContext, ref: InboundEventRef): Promise<boolean> {
  const now = ctx.now();
  const { rowCount } = await db.query(RECORD_EVENT, [
    ref.channel,
    ref.accountId,
    ref.eventId,
    now,
    now - ctx.inboundTtlMs,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function pruneInboundEvents(db: Db, ctx: StoreContext, limit?: number): Promise<number> {
  const max = checkLimit(limit);
  const cutoff = ctx.now() - ctx.inboundTtlMs;
  if (max === undefined) {
    return (await db.query("DELETE FROM inbound_events WHERE seen_at <= $1", [cutoff])).rowCount ?? 0;
  }
  // The oldest `max` through the age index: each step touches only what it removes.
  const { rowCount } = await db.query(
    `DELETE FROM inbound_events WHERE (channel, account_id, event_id) IN
       (SELECT channel, account_id, event_id FROM inbound_events WHERE seen_at <= $1 ORDER BY seen_at LIMIT $2)`,
    [cutoff, max],
  );
  return rowCount ?? 0;
}

/**
 * The whole inbound message in one statement (one round trip, atomic): record the event id; only if it is new,
 * create the session or take the next seq in it (one upsert), and append the message at that seq. `before` is the
 * session's `updated_at` as this statement found it, for the record "as ensured, before the append". The message's
 * memory mark is its sender's tier, or `off` when the session's settings (as the upsert found them) turn memory off.
 */
const STORE_INBOUND = prepared(
  "store_inbound",
  `
  WITH event AS (
    INSERT INTO inbound_events (channel, account_id, event_id, seen_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (channel, account_id, event_id) DO UPDATE SET seen_at = excluded.seen_at
    WHERE inbound_events.seen_at <= $5
    RETURNING 1),
  before AS (SELECT updated_at, last_inbound_seq FROM sessions WHERE key = $6),
  session AS (
    INSERT INTO sessions (key, agent_id, channel, account_id, chat_id, title, model_override, queue_mode_override,
      settings, created_at, updated_at, last_seq, last_inbound_seq)
    SELECT $6, $7, $8, $9, $10, $11, $12, $13, $14, $4, $4, 1, 1 WHERE EXISTS (SELECT 1 FROM event)
    ON CONFLICT (key) DO UPDATE SET
      last_seq = sessions.last_seq + 1, last_inbound_seq = sessions.last_seq + 1, updated_at = excluded.updated_at
    RETURNING *, (xmax = 0) AS created),
  message AS (
    INSERT INTO transcript_messages (session_key, seq, message, memory_mark)
    SELECT key, last_seq, $15,
      CASE WHEN $16::text IS NULL THEN NULL WHEN (settings::jsonb ->> 'memory') = 'off' THEN 'off' ELSE $16::text END
    FROM session)
  SELECT session.*, (SELECT updated_at FROM before) AS before_updated_at,
    (SELECT last_inbound_seq FROM before) AS before_inbound_seq FROM session`,
);

export async function storeInboundMessage(
  db: Db,
  ctx: StoreContext,
  input: NewInboundMessage,
): Promise<InboundMessageStored | undefined> {
  // Checked before anything is sent: a message that is not JSON leaves the event id unrecorded.
  const message = toStoredJson(input.message, "transcript message");
  const settings = toStoredJson(input.session.settings ?? {}, "session settings");
  const now = ctx.now();
  const { event, session } = input;
  const { rows } = await db.query(
    STORE_INBOUND,
    [
      event.channel,
      event.accountId,
      event.eventId,
      now,
      now - ctx.inboundTtlMs,
      session.key,
      session.agentId,
      session.channel,
      session.accountId,
      session.chatId,
      session.title ?? null,
      session.modelOverride ?? null,
      session.queueModeOverride ?? null,
      settings,
      message,
      input.memoryTier ?? null,
    ],
    session.key,
  );
  const row = rows[0];
  if (row === undefined) return undefined; // a replay within the TTL: nothing written
  const seq = Number(row.last_seq);
  const created = row.created === true;
  const ensured = sessionFromRow({
    ...row,
    last_seq: seq - 1,
    updated_at: created ? row.updated_at : (row.before_updated_at ?? row.updated_at),
  });
  // Earlier inbound messages of the session no commit answered yet (for a cluster owner's intake: taken up first).
  const answered = Math.max(Number(row.answered_seq ?? 0), ensured.transcriptStartSeq - 1);
  const previous = Number(row.before_inbound_seq ?? 0);
  const earlier = previous > answered ? { earlierUnanswered: { answeredSeq: answered, lastInboundSeq: previous } } : {};
  return { session: ensured, created, seq, ...earlier };
}
