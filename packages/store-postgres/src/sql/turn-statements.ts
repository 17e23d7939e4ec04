import type { TurnCommit, TurnCommitResult } from "@chorus/store";
import { notFound, runFromRow, runFromRowWithUsage } from "@chorus/store";
import { prepared } from "../prepared-statements.js";
import type { Db } from "../query-runner.js";
import { byKeyOnly } from "./by-key-only.js";
import { checkFence } from "./fence-check.js";
import { insertedOutbox, insertOutboxSql, outboxRows } from "./outbox-statements.js";
import { refusedRunChange, runPatchParameters, ZERO_USAGE_JSON } from "./run-statements.js";
import type { StoreContext } from "./store-context.js";
import { appendParameters, transcriptJson } from "./transcript-statements.js";

/**
 * A whole turn in one statement (one round trip, atomic): lock the session row and the running run, and only if both
 * are there append the messages, change the run and insert the outbox entries. With `$20` (the agent id of a run
 * started by this commit) a run that is not stored yet counts as there: it is inserted (depth 0) with the patch
 * applied, so a turn's run costs no statement of its own; `$21` is a new run's usage, `$23` its traceparent, `$24`
 * the outbox entries' traceparents. `$22`: the messages start
 * the transcript afresh (a compaction), as `resetTranscript` would. A refused turn writes nothing; why it
 * was refused is read afterwards. Parameters: `$1`–`$6` the append, `$7`–`$11` the run change, `$12`–`$17` the outbox,
 * `$19` the instance claiming the entries inserted claimed (a cluster), `$18` the ownership fence's epoch (a cluster):
 * the session's shard lease is locked `FOR SHARE` and the turn goes
 * ahead only if its epoch is still that one — a claim by another instance (which raises the epoch) either waits for
 * this statement or makes it write nothing.
 */
function commitTurnSql(claimed: boolean): string {
  return `
  WITH locked_session AS (SELECT key FROM sessions WHERE key = $1 FOR UPDATE),
  locked_run AS (SELECT id FROM runs WHERE id = $7 AND ${byKeyOnly("status = 'running'")} FOR UPDATE),
  new_run AS (SELECT 1 WHERE $20::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM runs WHERE id = $7)),
  fence AS (SELECT 1 FROM shard_leases WHERE shard = chorus_shard($1) AND epoch = $18::bigint FOR SHARE),
  go AS (
    SELECT 1 WHERE EXISTS (SELECT 1 FROM locked_session)
      AND ($7::text IS NULL OR EXISTS (SELECT 1 FROM locked_run) OR EXISTS (SELECT 1 FROM new_run))
      AND ($18::bigint IS NULL OR EXISTS (SELECT 1 FROM fence))),
  reserved AS (
    UPDATE sessions SET
      last_seq = last_seq + $2,
      last_inbound_seq = CASE WHEN $4::boolean THEN last_seq + $2 ELSE last_inbound_seq END,
      answered_seq = CASE WHEN $5::bigint IS NULL THEN answered_seq ELSE greatest(answered_seq, $5::bigint) END,
      updated_at = CASE WHEN $2 > 0 OR $22::boolean THEN $3 ELSE updated_at END,
      transcript_start_seq = CASE WHEN $22::boolean THEN last_seq + 1 ELSE transcript_start_seq END
    WHERE key = $1 AND EXISTS (SELECT 1 FROM go) RETURNING last_seq),
  appended AS (
    INSERT INTO transcript_messages (session_key, seq, message)
    SELECT $1, reserved.last_seq - $2 + m.ord, m.message
    FROM reserved, unnest($6::text[]) WITH ORDINALITY AS m (message, ord)),
  updated_run AS (
    UPDATE runs SET status = coalesce($8, status), ended_at = $9, usage = coalesce($10, usage), error = coalesce($11, error)
    WHERE id = $7 AND EXISTS (SELECT 1 FROM go) RETURNING *),
  started_run AS (
    INSERT INTO runs (id, session_key, parent_run_id, depth, agent_id, status, started_at, ended_at, usage, error,
      traceparent)
    SELECT $7, $1, NULL, 0, $20, coalesce($8, 'running'), $3, $9, coalesce($10, $21), $11, $23
    WHERE EXISTS (SELECT 1 FROM go) AND EXISTS (SELECT 1 FROM new_run)
    ON CONFLICT (id) DO NOTHING RETURNING *),
  run AS (SELECT * FROM updated_run UNION ALL SELECT * FROM started_run),
  outbox_ids AS (${insertOutboxSql(12, claimed, "EXISTS (SELECT 1 FROM go)", "$19", "$24")})
  SELECT EXISTS (SELECT 1 FROM go) AS committed, (SELECT last_seq FROM reserved) AS last_seq,
    (SELECT array_agg(id) FROM outbox_ids) AS outbox_ids, run.*
  FROM (SELECT 1) AS one LEFT JOIN run ON true`;
}

const COMMIT_CLAIMED = prepared("commit_turn_claimed", commitTurnSql(true));
const COMMIT_PENDING = prepared("commit_turn", commitTurnSql(false));

export async function commitTurn(db: Db, ctx: StoreContext, turn: TurnCommit): Promise<TurnCommitResult> {
  const json = transcriptJson(turn.messages);
  const outbox = outboxRows(ctx, turn.outbox ?? []);
  const patch = runPatchParameters(ctx, turn.run?.patch);
  const claimed = turn.claimOutbox === true;
  const marks = turn.answersSeq === undefined ? {} : { answersSeq: turn.answersSeq };
  const { rows } = await db.query(
    claimed ? COMMIT_CLAIMED : COMMIT_PENDING,
    [
      ...appendParameters(turn.sessionKey, json, ctx.now(), marks),
      turn.run?.id ?? null,
      ...patch.values,
      ...outbox.columns,
      outbox.at,
      turn.fence?.epoch ?? null,
      ctx.leaseOwner ?? null,
      turn.run?.start?.agentId ?? null,
      ZERO_USAGE_JSON,
      turn.startsTranscript === true,
      turn.run?.start?.traceparent ?? null,
      outbox.traceparents,
    ],
    turn.sessionKey,
  );
  const row = rows[0] ?? {};
  if (row.committed !== true) {
    // Nothing was written; say why, in the order the embedded stores check: the session, then the run.
    const session = await db.query("SELECT 1 FROM sessions WHERE key = $1", [turn.sessionKey]);
    if (session.rows.length === 0) throw notFound("session", turn.sessionKey);
    if (turn.fence !== undefined) await checkFence(db, turn.sessionKey, turn.fence.epoch);
    throw await refusedRunChange(db, turn.run?.id ?? "");
  }
  const lastSeq = Number(row.last_seq);
  const ids = ((row.outbox_ids as unknown[] | null) ?? []).map(Number);
  const result = { firstSeq: lastSeq - json.length + 1, lastSeq, outbox: insertedOutbox(outbox, ids, claimed) };
  if (turn.run === undefined) return result;
  const run = patch.usageJson === undefined ? runFromRow(row) : runFromRowWithUsage(row, patch.usageJson);
  return { ...result, run };
}
