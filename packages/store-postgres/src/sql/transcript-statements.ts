import type { AgentMessage } from "@chorus/core";
import type { AppendMarks, AppendResult, SessionRecord, TranscriptEntry } from "@chorus/store";
import { notFound, sessionFromRow, toStoredJson, transcriptEntryFromRow } from "@chorus/store";
import type { Db } from "../query-runner.js";
import type { StoreContext } from "./store-context.js";

/**
 * Reserves the seqs (the session's UPDATE … RETURNING) and inserts the messages in one statement, so an append is one
 * round trip and atomic on its own. `$4` set: the messages are an inbound user message waiting for an answer; `$5` set:
 * user messages up to it are answered. SET reads the row's old values, so last_inbound_seq becomes the new last_seq.
 */
const APPEND = `
  WITH reserved AS (
    UPDATE sessions SET
      last_seq = last_seq + $2,
      last_inbound_seq = CASE WHEN $4::boolean THEN last_seq + $2 ELSE last_inbound_seq END,
      answered_seq = CASE WHEN $5::bigint IS NULL THEN answered_seq ELSE greatest(answered_seq, $5::bigint) END,
      updated_at = CASE WHEN $2 > 0 THEN $3 ELSE updated_at END
    WHERE key = $1 RETURNING last_seq),
  appended AS (
    INSERT INTO transcript_messages (session_key, seq, message)
    SELECT $1, reserved.last_seq - $2 + m.ord, m.message
    FROM reserved, unnest($6::text[]) WITH ORDINALITY AS m (message, ord))
  SELECT last_seq FROM reserved`;

/** Serialises messages for the transcript. Contract: throws `invalid-input` for one that is not JSON. */
export function transcriptJson(messages: readonly AgentMessage[]): string[] {
  return messages.map((message) => toStoredJson(message, "transcript message"));
}

/** The parameters of the append statement, for use inside a larger statement. */
export function appendParameters(
  sessionKey: string,
  json: readonly string[],
  now: number,
  marks: AppendMarks,
): unknown[] {
  return [sessionKey, json.length, now, marks.inbound === true, marks.answersSeq ?? null, json];
}

export async function appendMessages(
  db: Db,
  ctx: StoreContext,
  sessionKey: string,
  messages: readonly AgentMessage[],
  marks: AppendMarks = {},
): Promise<AppendResult> {
  const json = transcriptJson(messages);
  const { rows } = await db.query(APPEND, appendParameters(sessionKey, json, ctx.now(), marks));
  if (rows[0] === undefined) throw notFound("session", sessionKey);
  const lastSeq = Number(rows[0].last_seq);
  return { firstSeq: lastSeq - json.length + 1, lastSeq };
}

export async function readTranscript(
  db: Db,
  sessionKey: string,
  options: { fromSeq?: number } = {},
): Promise<TranscriptEntry[]> {
  const { rows } =
    options.fromSeq === undefined
      ? await db.query(
          `SELECT seq, message, memory_mark FROM transcript_messages
           WHERE session_key = $1 AND seq >= (SELECT transcript_start_seq FROM sessions WHERE key = $1)
           ORDER BY seq`,
          [sessionKey],
        )
      : await db.query(
          "SELECT seq, message, memory_mark FROM transcript_messages WHERE session_key = $1 AND seq >= $2 ORDER BY seq",
          [sessionKey, options.fromSeq],
        );
  return rows.map(transcriptEntryFromRow);
}

export async function resetTranscript(db: Db, ctx: StoreContext, sessionKey: string): Promise<SessionRecord> {
  const { rows } = await db.query(
    "UPDATE sessions SET transcript_start_seq = last_seq + 1, updated_at = $2 WHERE key = $1 RETURNING *",
    [sessionKey, ctx.now()],
  );
  if (rows[0] === undefined) throw notFound("session", sessionKey);
  return sessionFromRow(rows[0]);
}
