import type { NewSession, SessionFilter, SessionPatch, SessionRecord } from "@chorus/store";
import { notFound, type StoredRow, sessionFromRow, toStoredJson } from "@chorus/store";
import type { Db } from "../query-runner.js";
import type { StoreContext } from "./store-context.js";
import { WhereClause } from "./where-clause.js";

// One statement: insert the session unless it exists, and return the row either way (with whether it was new).
const ENSURE_SESSION = `
  WITH inserted AS (
    INSERT INTO sessions (key, agent_id, channel, account_id, chat_id, title, model_override, queue_mode_override,
      settings, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (key) DO NOTHING RETURNING *)
  SELECT *, true AS created FROM inserted
  UNION ALL SELECT *, false AS created FROM sessions WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM inserted)`;

export async function ensureSession(
  db: Db,
  ctx: StoreContext,
  input: NewSession,
): Promise<{ session: SessionRecord; created: boolean }> {
  const settings = toStoredJson(input.settings ?? {}, "session settings");
  const { rows } = await db.query(ENSURE_SESSION, [
    input.key,
    input.agentId,
    input.channel,
    input.accountId,
    input.chatId,
    input.title ?? null,
    input.modelOverride ?? null,
    input.queueModeOverride ?? null,
    settings,
    ctx.now(),
  ]);
  const row = rows[0];
  if (row !== undefined) return { session: sessionFromRow(row), created: row.created === true };
  // Another connection inserted it after this statement's snapshot was taken: it is committed now.
  return { session: await requireSession(db, input.key), created: false };
}

export async function getSession(db: Db, key: string): Promise<SessionRecord | undefined> {
  const { rows } = await db.query("SELECT * FROM sessions WHERE key = $1", [key]);
  return rows[0] === undefined ? undefined : sessionFromRow(rows[0]);
}

export async function requireSession(db: Db, key: string): Promise<SessionRecord> {
  const session = await getSession(db, key);
  if (session === undefined) throw notFound("session", key);
  return session;
}

export async function listSessions(db: Db, filter: SessionFilter = {}): Promise<SessionRecord[]> {
  const where = new WhereClause();
  if (filter.agentId !== undefined) where.equals("agent_id", filter.agentId);
  const sql = `SELECT * FROM sessions${where.clause()} ORDER BY updated_at DESC, key${where.limit(filter.limit)}`;
  const { rows } = await db.query(sql, where.values);
  return rows.map(sessionFromRow);
}

// Each optional field: a flag (change it?) and the new value (null clears). Settings are replaced when given.
const UPDATE_SESSION = `
  UPDATE sessions SET
    title = CASE WHEN $2::boolean THEN $3::text ELSE title END,
    model_override = CASE WHEN $4::boolean THEN $5::text ELSE model_override END,
    queue_mode_override = CASE WHEN $6::boolean THEN $7::text ELSE queue_mode_override END,
    settings = coalesce($8::text, settings),
    updated_at = $9,
    memory_extracted_seq = greatest(memory_extracted_seq, $10::bigint)
  WHERE key = $1 RETURNING *`;

export async function updateSession(
  db: Db,
  ctx: StoreContext,
  key: string,
  patch: SessionPatch,
): Promise<SessionRecord> {
  const settings = patch.settings === undefined ? null : toStoredJson(patch.settings, "session settings");
  const { rows } = await db.query(UPDATE_SESSION, [
    key,
    patch.title !== undefined,
    patch.title ?? null,
    patch.modelOverride !== undefined,
    patch.modelOverride ?? null,
    patch.queueModeOverride !== undefined,
    patch.queueModeOverride ?? null,
    settings,
    ctx.now(),
    patch.memoryExtractedSeq ?? 0,
  ]);
  if (rows[0] === undefined) throw notFound("session", key);
  return sessionFromRow(rows[0] as StoredRow);
}

export async function deleteSession(db: Db, key: string): Promise<boolean> {
  // The transcript goes with it (ON DELETE CASCADE).
  const { rowCount } = await db.query("DELETE FROM sessions WHERE key = $1", [key]);
  return (rowCount ?? 0) > 0;
}

export async function listUnansweredSessions(db: Db): Promise<SessionRecord[]> {
  // A scan of the sessions at start-up, not on the message path: no index to keep up on every message.
  const { rows } = await db.query(
    `SELECT * FROM sessions WHERE last_inbound_seq > answered_seq AND last_inbound_seq >= transcript_start_seq
     ORDER BY updated_at DESC, key`,
  );
  return rows.map(sessionFromRow);
}
