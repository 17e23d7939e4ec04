import type { NewRun, RunFilter, RunPatch, RunRecord, RunStatus, StoredRow } from "@chorus/store";
import {
  assertRunning,
  buildRunRecord,
  notFound,
  RUN_COLUMNS_BUT_USAGE,
  runFromRow,
  runFromRowWithUsage,
  runSpawnJson,
  SessionStoreError,
  statusList,
  toStoredJson,
  zeroUsage,
} from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";
import { Where } from "./where-clause.js";

const RUN_STATUSES: readonly RunStatus[] = ["running", "completed", "failed", "aborted", "interrupted"];

/** A new run's usage, serialised once. */
const ZERO_USAGE_JSON = JSON.stringify(zeroUsage());

// A hot statement with a column list spliced in: built once, so that the statement cache's key is one string.
const UPDATE_RUN_WITH_USAGE = `UPDATE runs SET status = coalesce(?, status), ended_at = ?, usage = ?, error = coalesce(?, error)
  WHERE id = ? AND status = 'running' RETURNING ${RUN_COLUMNS_BUT_USAGE}`;

/** Starts a run (a sub-agent's one level below its parent); `conflict` if the id is taken. */
export function startRun(sqlite: SqliteContext, input: NewRun): RunRecord {
  const started = insertRun(sqlite, input);
  if (started === undefined) {
    throw new SessionStoreError("conflict", `A run with id ${JSON.stringify(input.id)} already exists.`);
  }
  return started;
}

// A turn's run started and patched in one statement: inserted with the patch applied, or, when it exists and is still
// running, updated as `updateRun` would. Two forms, as `updateRun`: with the turn's usage (not read back) or without.
const UPSERT_RUN_WITH_USAGE = `INSERT INTO runs (id, session_key, depth, agent_id, status, started_at, ended_at, usage,
    error, traceparent)
  VALUES (?1, ?2, 0, ?3, coalesce(?4, 'running'), ?5, ?6, ?7, ?8, ?9)
  ON CONFLICT (id) DO UPDATE SET status = coalesce(?4, status), ended_at = ?6, usage = ?7, error = coalesce(?8, error)
    WHERE runs.status = 'running'
  RETURNING ${RUN_COLUMNS_BUT_USAGE}`;
const UPSERT_RUN = `INSERT INTO runs (id, session_key, depth, agent_id, status, started_at, ended_at, usage, error,
    traceparent)
  VALUES (?1, ?2, 0, ?3, coalesce(?4, 'running'), ?5, ?6, '${ZERO_USAGE_JSON}', ?7, ?8)
  ON CONFLICT (id) DO UPDATE SET status = coalesce(?4, status), ended_at = ?6, error = coalesce(?7, error)
    WHERE runs.status = 'running'
  RETURNING *`;

/**
 * Starts the run unless it exists, then applies `patch` (as `updateRun`): with a patch, one statement.
 * Contract: `invalid-state` when the run exists and already ended.
 */
export function startOrPatchRun(sqlite: SqliteContext, input: NewRun, patch: RunPatch | undefined): RunRecord {
  if (patch === undefined || input.parentRunId !== undefined || input.spawn !== undefined) {
    const started = insertRun(sqlite, input);
    if (patch !== undefined) return updateRun(sqlite, input.id, patch);
    if (started !== undefined) return started;
    const existing = requireRun(sqlite, input.id);
    assertRunning(input.id, existing.status);
    return existing;
  }
  const status = patch.status ?? null;
  const now = sqlite.now();
  const endedAt = patch.status === undefined ? null : now;
  const error = patch.error ?? null;
  const traceparent = input.traceparent ?? null;
  let row: StoredRow | undefined;
  if (patch.usage === undefined) {
    row = sqlite
      .sql(UPSERT_RUN)
      .get(input.id, input.sessionKey, input.agentId, status, now, endedAt, error, traceparent);
    if (row !== undefined) return runFromRow(row);
  } else {
    const usage = toStoredJson(patch.usage, "run usage");
    row = sqlite
      .sql(UPSERT_RUN_WITH_USAGE)
      .get(input.id, input.sessionKey, input.agentId, status, now, endedAt, usage, error, traceparent);
    if (row !== undefined) return runFromRowWithUsage(row, usage);
  }
  // Neither inserted nor updated: the run exists and has ended.
  assertRunning(input.id, requireRun(sqlite, input.id).status);
  throw notFound("run", input.id);
}

/** The run just written, or undefined when its id was taken (nothing written). */
function insertRun(sqlite: SqliteContext, input: NewRun): RunRecord | undefined {
  let depth = 0;
  if (input.parentRunId !== undefined) {
    const parent = getRun(sqlite, input.parentRunId);
    if (parent === undefined) throw notFound("parent run", input.parentRunId);
    depth = parent.depth + 1;
  }
  // A duplicate id changes nothing: one statement instead of a read and a write. The record is built from what was
  // written (no RETURNING row to decode, no usage JSON to parse on every turn).
  const startedAt = sqlite.now();
  const inserted = sqlite
    .sql(
      `INSERT INTO runs (id, session_key, parent_run_id, depth, agent_id, status, started_at, usage, traceparent, spawn)
       VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    )
    .run(
      input.id,
      input.sessionKey,
      input.parentRunId ?? null,
      depth,
      input.agentId,
      startedAt,
      ZERO_USAGE_JSON,
      input.traceparent ?? null,
      runSpawnJson(input.spawn),
    );
  if (Number(inserted.changes) === 0) return undefined;
  return buildRunRecord({
    id: input.id,
    sessionKey: input.sessionKey,
    parentRunId: input.parentRunId,
    depth,
    agentId: input.agentId,
    status: "running",
    startedAt,
    usage: zeroUsage(),
    traceparent: input.traceparent,
    spawn: input.spawn,
  });
}

/** The run `id`, or undefined. */
export function getRun(sqlite: SqliteContext, id: string): RunRecord | undefined {
  const row = sqlite.sql("SELECT * FROM runs WHERE id = ?").get(id);
  return row === undefined ? undefined : runFromRow(row);
}

/** The runs `filter` picks, oldest first. */
export function listRuns(sqlite: SqliteContext, filter: RunFilter = {}): RunRecord[] {
  const where = new Where();
  where.oneOf("status", statusList(filter.status), RUN_STATUSES);
  if (filter.sessionKey !== undefined) where.equals("session_key", filter.sessionKey);
  if (filter.agentId !== undefined) where.equals("agent_id", filter.agentId);
  if (filter.parentRunId !== undefined) where.equals("parent_run_id", filter.parentRunId);
  const sql = `SELECT * FROM runs${where.clause()} ORDER BY started_at, id${where.limit(filter.limit)}`;
  return sqlite
    .sql(sql)
    .all(...where.values)
    .map(runFromRow);
}

/** Applies `patch` to a running run (a new status ends it); `not-found` or `invalid-state` otherwise. */
export function updateRun(sqlite: SqliteContext, id: string, patch: RunPatch): RunRecord {
  const status = patch.status ?? null;
  const endedAt = patch.status === undefined ? null : sqlite.now();
  const error = patch.error ?? null;
  // Only a running run changes; no row back means it is unknown or already ended (told apart below).
  let row: StoredRow | undefined;
  if (patch.usage === undefined) {
    row = sqlite
      .sql(
        `UPDATE runs SET status = coalesce(?, status), ended_at = ?, error = coalesce(?, error)
         WHERE id = ? AND status = 'running' RETURNING *`,
      )
      .get(status, endedAt, error, id);
    if (row !== undefined) return runFromRow(row);
  } else {
    // The usage just written is not read back: the record takes it from the JSON written, parsed only if read.
    const usage = toStoredJson(patch.usage, "run usage");
    row = sqlite.sql(UPDATE_RUN_WITH_USAGE).get(status, endedAt, usage, error, id);
    if (row !== undefined) return runFromRowWithUsage(row, usage);
  }
  assertRunning(id, requireRun(sqlite, id).status);
  throw notFound("run", id);
}

/** Marks every running run interrupted (with `error`, if given), as after a crash; returns them. */
export function interruptRunningRuns(sqlite: SqliteContext, error?: string): RunRecord[] {
  return listRuns(sqlite, { status: "running" }).map((run) =>
    updateRun(sqlite, run.id, { status: "interrupted", ...(error !== undefined ? { error } : {}) }),
  );
}

function requireRun(sqlite: SqliteContext, id: string): RunRecord {
  const run = getRun(sqlite, id);
  if (run === undefined) throw notFound("run", id);
  return run;
}
