import type { NewRun, RunFilter, RunPatch, RunRecord, RunStatus } from "@chorus/store";
import {
  assertRunning,
  buildRunRecord,
  notFound,
  runFromRow,
  runFromRowWithUsage,
  runSpawnJson,
  SessionStoreError,
  statusList,
  toStoredJson,
  zeroUsage,
} from "@chorus/store";
import type { Db } from "../query-runner.js";
import { byKeyOnly } from "./by-key-only.js";
import { checkFence } from "./fence-check.js";
import type { StoreContext } from "./store-context.js";
import { WhereClause } from "./where-clause.js";

const RUN_STATUSES: readonly RunStatus[] = ["running", "completed", "failed", "aborted", "interrupted"];

/** A new run's usage, serialised once. */
export const ZERO_USAGE_JSON = JSON.stringify(zeroUsage());

// One statement: the parent's depth, and the insert (skipped for an unknown parent; a duplicate id changes nothing).
// With a fence (`$7`, a cluster), the session's shard lease is locked `FOR SHARE` and must still be at that epoch.
const START_RUN = `
  WITH parent AS (SELECT depth FROM runs WHERE id = $3),
  fence AS (SELECT 1 FROM shard_leases WHERE shard = chorus_shard($2) AND epoch = $7::bigint FOR SHARE),
  fenced AS (SELECT 1 WHERE $7::bigint IS NOT NULL AND NOT EXISTS (SELECT 1 FROM fence)),
  inserted AS (
    INSERT INTO runs (id, session_key, parent_run_id, depth, agent_id, status, started_at, usage, traceparent, spawn)
    SELECT $1, $2, $3, coalesce((SELECT depth + 1 FROM parent), 0), $4, 'running', $5, $6, $8, $9
    WHERE ($3::text IS NULL OR EXISTS (SELECT 1 FROM parent)) AND NOT EXISTS (SELECT 1 FROM fenced)
    ON CONFLICT (id) DO NOTHING RETURNING depth)
  SELECT (SELECT depth FROM inserted) AS depth, EXISTS (SELECT 1 FROM parent) AS parent_found,
    EXISTS (SELECT 1 FROM fenced) AS fenced`;

export async function startRun(db: Db, ctx: StoreContext, input: NewRun): Promise<RunRecord> {
  const startedAt = ctx.now();
  const { rows } = await db.query(START_RUN, [
    input.id,
    input.sessionKey,
    input.parentRunId ?? null,
    input.agentId,
    startedAt,
    ZERO_USAGE_JSON,
    input.fence?.epoch ?? null,
    input.traceparent ?? null,
    runSpawnJson(input.spawn),
  ]);
  const row = rows[0] ?? {};
  if (row.fenced === true && input.fence !== undefined) await checkFence(db, input.sessionKey, input.fence.epoch);
  if (input.parentRunId !== undefined && row.parent_found !== true) throw notFound("parent run", input.parentRunId);
  if (row.depth === null || row.depth === undefined) {
    throw new SessionStoreError("conflict", `A run with id ${JSON.stringify(input.id)} already exists.`);
  }
  // Built from what was written: no usage JSON to parse on every turn.
  return buildRunRecord({
    id: input.id,
    sessionKey: input.sessionKey,
    parentRunId: input.parentRunId,
    depth: Number(row.depth),
    agentId: input.agentId,
    status: "running",
    startedAt,
    usage: zeroUsage(),
    traceparent: input.traceparent,
    spawn: input.spawn,
  });
}

export async function getRun(db: Db, id: string): Promise<RunRecord | undefined> {
  const { rows } = await db.query("SELECT * FROM runs WHERE id = $1", [id]);
  return rows[0] === undefined ? undefined : runFromRow(rows[0]);
}

export async function listRuns(db: Db, filter: RunFilter = {}): Promise<RunRecord[]> {
  const where = new WhereClause();
  where.oneOf("status", statusList(filter.status), RUN_STATUSES);
  if (filter.sessionKey !== undefined) where.equals("session_key", filter.sessionKey);
  if (filter.agentId !== undefined) where.equals("agent_id", filter.agentId);
  if (filter.parentRunId !== undefined) where.equals("parent_run_id", filter.parentRunId);
  const sql = `SELECT * FROM runs${where.clause()} ORDER BY started_at, id${where.limit(filter.limit)}`;
  const { rows } = await db.query(sql, where.values);
  return rows.map(runFromRow);
}

/** The SET list and parameters of a run patch: `$1` status, `$2` endedAt, `$3` usage JSON, `$4` error (from `offset`). */
export function runPatchParameters(
  ctx: StoreContext,
  patch: RunPatch | undefined,
): {
  values: unknown[];
  usageJson: string | undefined;
} {
  const usageJson = patch?.usage === undefined ? undefined : toStoredJson(patch.usage, "run usage");
  return {
    values: [
      patch?.status ?? null,
      patch?.status === undefined ? null : ctx.now(),
      usageJson ?? null,
      patch?.error ?? null,
    ],
    usageJson,
  };
}

const UPDATE_RUN = `
  UPDATE runs SET status = coalesce($2, status), ended_at = $3, usage = coalesce($4, usage), error = coalesce($5, error)
  WHERE id = $1 AND ${byKeyOnly("status = 'running'")} RETURNING *`;

export async function updateRun(db: Db, ctx: StoreContext, id: string, patch: RunPatch): Promise<RunRecord> {
  const { values, usageJson } = runPatchParameters(ctx, patch);
  // Only a running run changes; no row back means it is unknown or already ended (told apart below).
  const { rows } = await db.query(UPDATE_RUN, [id, ...values]);
  if (rows[0] !== undefined) {
    return usageJson === undefined ? runFromRow(rows[0]) : runFromRowWithUsage(rows[0], usageJson);
  }
  throw await refusedRunChange(db, id);
}

/** Why a running-only change found no row: `invalid-state` for an ended run, else `not-found`. */
export async function refusedRunChange(db: Db, id: string): Promise<SessionStoreError> {
  const run = await getRun(db, id);
  if (run === undefined) return notFound("run", id);
  try {
    assertRunning(id, run.status);
  } catch (error) {
    if (error instanceof SessionStoreError) return error;
    throw error;
  }
  // Running now: it was ended and restarted between the two reads, which no caller does; report the conflict.
  return new SessionStoreError("conflict", `Run ${JSON.stringify(id)} changed while it was being updated; try again.`);
}

export async function interruptRunningRuns(db: Db, ctx: StoreContext, error?: string): Promise<RunRecord[]> {
  const { rows } = await db.query(
    `UPDATE runs SET status = 'interrupted', ended_at = $1, error = coalesce($2, error) WHERE status = 'running'
     RETURNING *`,
    [ctx.now(), error ?? null],
  );
  return rows.map(runFromRow).sort((a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
