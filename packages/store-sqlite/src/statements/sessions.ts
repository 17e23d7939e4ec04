import type { NewSession, SessionFilter, SessionPatch, SessionRecord } from "@chorus/store";
import { buildSessionRecord, notFound, patched, sessionFromRow, toStoredJson } from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";
import { Where } from "./where-clause.js";

/** The session at `input.key`, created from `input` if there is none; `created` says which. */
export function ensureSession(sqlite: SqliteContext, input: NewSession): { session: SessionRecord; created: boolean } {
  // Most calls find the session: one read; a new one is one INSERT … RETURNING.
  const existing = getSession(sqlite, input.key);
  if (existing !== undefined) return { session: existing, created: false };
  const at = sqlite.now();
  const inserted = sqlite
    .sql(
      `INSERT INTO sessions (key, agent_id, channel, account_id, chat_id, title, model_override, queue_mode_override,
         settings, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING RETURNING *`,
    )
    .get(
      input.key,
      input.agentId,
      input.channel,
      input.accountId,
      input.chatId,
      input.title ?? null,
      input.modelOverride ?? null,
      input.queueModeOverride ?? null,
      toStoredJson(input.settings ?? {}, "session settings"),
      at,
      at,
    );
  return inserted === undefined
    ? { session: requireSession(sqlite, input.key), created: false }
    : { session: sessionFromRow(inserted), created: true };
}

/** The session at `key`, or undefined. */
export function getSession(sqlite: SqliteContext, key: string): SessionRecord | undefined {
  const row = sqlite.sql("SELECT * FROM sessions WHERE key = ?").get(key);
  return row === undefined ? undefined : sessionFromRow(row);
}

/** The sessions `filter` picks, most recently updated first. */
export function listSessions(sqlite: SqliteContext, filter: SessionFilter = {}): SessionRecord[] {
  const where = new Where();
  if (filter.agentId !== undefined) where.equals("agent_id", filter.agentId);
  const sql = `SELECT * FROM sessions${where.clause()} ORDER BY updated_at DESC, key${where.limit(filter.limit)}`;
  return sqlite
    .sql(sql)
    .all(...where.values)
    .map(sessionFromRow);
}

/** Applies `patch` to the session at `key` and returns it as stored; `not-found` if there is none. */
export function updateSession(sqlite: SqliteContext, key: string, patch: SessionPatch): SessionRecord {
  const current = requireSession(sqlite, key);
  const next = buildSessionRecord(
    current,
    {
      title: patched(current.title, patch.title),
      modelOverride: patched(current.modelOverride, patch.modelOverride),
      queueModeOverride: patched(current.queueModeOverride, patch.queueModeOverride),
    },
    {
      ...current,
      settings: patch.settings ?? current.settings,
      updatedAt: sqlite.now(),
    },
  );
  sqlite
    .sql(
      `UPDATE sessions SET title = ?, model_override = ?, queue_mode_override = ?, settings = ?, updated_at = ?,
         memory_extracted_seq = max(memory_extracted_seq, ?)
       WHERE key = ?`,
    )
    .run(
      next.title ?? null,
      next.modelOverride ?? null,
      next.queueModeOverride ?? null,
      toStoredJson(next.settings, "session settings"),
      next.updatedAt,
      patch.memoryExtractedSeq ?? 0,
      key,
    );
  return requireSession(sqlite, key);
}

/** Deletes the session at `key` with its transcript; false if there was none. */
export function deleteSession(sqlite: SqliteContext, key: string): boolean {
  // The transcript goes with it (ON DELETE CASCADE).
  return Number(sqlite.sql("DELETE FROM sessions WHERE key = ?").run(key).changes) > 0;
}

/** The session at `key`; `not-found` if there is none. */
export function requireSession(sqlite: SqliteContext, key: string): SessionRecord {
  const session = getSession(sqlite, key);
  if (session === undefined) throw notFound("session", key);
  return session;
}
