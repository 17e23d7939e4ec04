import type { AgentMessage } from "@chorus/core";
import type { AppendMarks, AppendResult, SessionRecord, StoredRow, TranscriptEntry } from "@chorus/store";
import { notFound, sessionFromRow, toStoredJson, transcriptEntryFromRow } from "@chorus/store";
import { requireSession } from "./sessions.js";
import type { SqliteContext } from "./sqlite-context.js";

/**
 * Appends `messages` to the session's transcript with the next seqs, recording `marks` in the same write.
 * Contract: callers run it atomically (the seqs are reserved before the messages are inserted).
 */
export function appendMessages(
  sqlite: SqliteContext,
  sessionKey: string,
  messages: readonly AgentMessage[],
  marks: AppendMarks = {},
): AppendResult {
  const json = messages.map((message) => toStoredJson(message, "transcript message"));
  if (json.length === 0) {
    const row =
      marks.answersSeq === undefined
        ? sqlite.sql("SELECT last_seq FROM sessions WHERE key = ?").get(sessionKey)
        : sqlite
            .sql("UPDATE sessions SET answered_seq = max(answered_seq, ?) WHERE key = ? RETURNING last_seq")
            .get(marks.answersSeq, sessionKey);
    if (row === undefined) throw notFound("session", sessionKey);
    const previous = Number(row.last_seq);
    return { firstSeq: previous + 1, lastSeq: previous };
  }
  // Reserve the seqs first (one UPDATE … RETURNING instead of a read and a write), recording the marks in the same
  // statement (SET reads the row's old values: last_inbound_seq becomes the new last_seq); callers run this atomically.
  const row = (
    marks.inbound === true
      ? sqlite
          .sql(
            `UPDATE sessions SET last_seq = last_seq + ?1, last_inbound_seq = last_seq + ?1, updated_at = ?2
             WHERE key = ?3 RETURNING last_seq`,
          )
          .get(json.length, sqlite.now(), sessionKey)
      : marks.answersSeq !== undefined
        ? sqlite
            .sql(
              `UPDATE sessions SET last_seq = last_seq + ?1, answered_seq = max(answered_seq, ?4), updated_at = ?2
               WHERE key = ?3 RETURNING last_seq`,
            )
            .get(json.length, sqlite.now(), sessionKey, marks.answersSeq)
        : sqlite
            .sql("UPDATE sessions SET last_seq = last_seq + ?, updated_at = ? WHERE key = ? RETURNING last_seq")
            .get(json.length, sqlite.now(), sessionKey)
  ) as StoredRow | undefined;
  if (row === undefined) throw notFound("session", sessionKey);
  const lastSeq = Number(row.last_seq);
  const insert = sqlite.sql(
    "INSERT INTO transcript_messages (session_key, seq, message, memory_mark) VALUES (?, ?, ?, ?)",
  );
  let seq = lastSeq - json.length;
  for (const message of json) insert.run(sessionKey, ++seq, message, marks.memory ?? null);
  return { firstSeq: lastSeq - json.length + 1, lastSeq };
}

/** The sessions whose last inbound user message has no answer yet (in the transcript still read). */
export function listUnansweredSessions(sqlite: SqliteContext): SessionRecord[] {
  // A scan of the sessions at start-up, not on the message path: no index to keep up on every message.
  return sqlite
    .sql(
      `SELECT * FROM sessions WHERE last_inbound_seq > answered_seq AND last_inbound_seq >= transcript_start_seq
       ORDER BY updated_at DESC, key`,
    )
    .all()
    .map(sessionFromRow);
}

/** The session's transcript in seq order: from `fromSeq`, or from its last reset. */
export function readTranscript(
  sqlite: SqliteContext,
  sessionKey: string,
  options: { fromSeq?: number } = {},
): TranscriptEntry[] {
  const rows =
    options.fromSeq === undefined
      ? sqlite
          .sql(
            `SELECT seq, message, memory_mark FROM transcript_messages
             WHERE session_key = ?1 AND seq >= (SELECT transcript_start_seq FROM sessions WHERE key = ?1)
             ORDER BY seq`,
          )
          .all(sessionKey)
      : sqlite
          .sql(
            "SELECT seq, message, memory_mark FROM transcript_messages WHERE session_key = ? AND seq >= ? ORDER BY seq",
          )
          .all(sessionKey, options.fromSeq);
  return rows.map(transcriptEntryFromRow);
}

/** Starts the session's transcript afresh after its last message; `not-found` if there is no session. */
export function resetTranscript(sqlite: SqliteContext, sessionKey: string): SessionRecord {
  // The old messages stay in the table: a reset moves where reading starts, one small UPDATE.
  const changed = sqlite
    .sql("UPDATE sessions SET transcript_start_seq = last_seq + 1, updated_at = ? WHERE key = ?")
    .run(sqlite.now(), sessionKey);
  if (Number(changed.changes) === 0) throw notFound("session", sessionKey);
  return requireSession(sqlite, sessionKey);
}
