import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import type { AgentMessage } from "@chorus/core";
import type { PairingInsertResult, PairingRequest, PairingScope } from "@chorus/gateway";
import type {
  AppendMarks,
  AppendResult,
  ClaimDueOptions,
  InboundEventRef,
  NestingStoreCore,
  NewOutboxEntry,
  NewRun,
  NewSession,
  OutboxEntry,
  OutboxFailure,
  OutboxFilter,
  OutboxStatus,
  RunFilter,
  RunPatch,
  RunRecord,
  RunStatus,
  ScheduleFilter,
  ScheduleRecord,
  ScheduleStatus,
  SessionFilter,
  SessionPatch,
  SessionRecord,
  SpendKind,
  TranscriptEntry,
} from "@chorus/gateway/store";
import {
  assertRunning,
  buildRunRecord,
  buildSessionRecord,
  checkLimit,
  DEFAULT_INBOUND_EVENT_TTL_MS,
  type HeldSpend,
  notFound,
  OUTBOX_COLUMNS_BUT_JSON,
  outboxFromRow,
  outboxFromRowWithLazyPayload,
  pairingRequestFromRow,
  patched,
  RECLAIMED_IN_FLIGHT_ERROR,
  RUN_COLUMNS_BUT_USAGE,
  runFromRow,
  runFromRowWithUsage,
  runSpawnJson,
  SessionStoreError,
  type SpendLedgerOps,
  type SpendTable,
  type StoredRow,
  scheduleFromRow,
  sessionFromRow,
  spendLedgerOps,
  spendRowFromRow,
  staleClaimBefore,
  statusList,
  toStoredJson,
  transcriptEntryFromRow,
  zeroUsage,
} from "@chorus/gateway/store";
import { translateSqliteError } from "./sqlite-errors.js";
import type { StoreOwnerLock } from "./store-owner-lock.js";
import type { WalCheckpointer } from "./wal-checkpointer.js";

const RUN_STATUSES: readonly RunStatus[] = ["running", "completed", "failed", "aborted", "interrupted"];
const OUTBOX_STATUSES: readonly OutboxStatus[] = ["pending", "in-flight", "sent", "failed"];
const SCHEDULE_STATUSES: readonly ScheduleStatus[] = ["active", "stopped", "done"];

/** A new run's usage, serialised once. */
const ZERO_USAGE_JSON = JSON.stringify(zeroUsage());

// Hot statements with a column list spliced in: built once, so that the statement cache's key is one string.
const UPDATE_RUN_WITH_USAGE = `UPDATE runs SET status = coalesce(?, status), ended_at = ?, usage = ?, error = coalesce(?, error)
  WHERE id = ? AND status = 'running' RETURNING ${RUN_COLUMNS_BUT_USAGE}`;
const MARK_OUTBOX_SENT = `UPDATE outbox SET status = 'sent', platform_message_ids = ?, last_error = NULL, updated_at = ?
  WHERE id = ? AND status = 'in-flight' RETURNING ${OUTBOX_COLUMNS_BUT_JSON}`;

/** What the SQLite engine needs besides the open connection. */
export interface SqliteCoreOptions {
  path: string;
  now: () => number;
  inboundEventTtlMs?: number;
  /** Runs the WAL checkpoints off the event loop; stopped on close. */
  checkpointer?: WalCheckpointer;
  /** The store's hold on its file; released on close, after the database. */
  ownerLock?: StoreOwnerLock;
}

/**
 * The SQLite engine: every statement is prepared once and cached; multi-row writes run in one transaction;
 * a transcript read is one indexed query.
 */
export class SqliteStoreCore implements NestingStoreCore {
  private readonly db: DatabaseSync;
  private readonly path: string;
  private readonly now: () => number;
  private readonly inboundTtlMs: number;
  private readonly statements = new Map<string, StatementSync>();
  private readonly checkpointer: WalCheckpointer | undefined;
  private readonly ownerLock: StoreOwnerLock | undefined;

  constructor(db: DatabaseSync, options: SqliteCoreOptions) {
    this.db = db;
    this.checkpointer = options.checkpointer;
    this.ownerLock = options.ownerLock;
    this.path = options.path;
    this.now = options.now;
    this.inboundTtlMs = options.inboundEventTtlMs ?? DEFAULT_INBOUND_EVENT_TTL_MS;
  }

  /** The cached prepared statement for `sql` (filters build a few variants; each is prepared once). */
  private sql(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * A statement whose integers are read as bigints: for rows that may hold an integer past 2^53 (a schedule time
   * written by an older version), which the plain read refuses for the whole result ("Value is too large…").
   */
  private sqlReadingBigInts(sql: string): StatementSync {
    const key = `bigints:${sql}`;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      statement.setReadBigInts(true);
      this.statements.set(key, statement);
    }
    return statement;
  }

  /** The database, for writes that join a turn's transaction (`TurnCommit.sideWrites.sync`). */
  get connection(): DatabaseSync {
    return this.db;
  }

  // ── Transactions ──────────────────────────────────────────────────────────

  begin(): void {
    // IMMEDIATE takes the write lock now, so a transaction never fails halfway for want of it.
    this.db.exec("BEGIN IMMEDIATE");
  }

  commit(): void {
    this.db.exec("COMMIT");
  }

  rollback(): void {
    if (this.db.isTransaction) this.db.exec("ROLLBACK");
  }

  beginSavepoint(): void {
    this.sql("SAVEPOINT nested").run();
  }

  releaseSavepoint(): void {
    this.sql("RELEASE nested").run();
  }

  rollbackToSavepoint(): void {
    if (!this.db.isTransaction) return;
    this.sql("ROLLBACK TO nested").run();
    this.sql("RELEASE nested").run();
  }

  atomically<T>(fn: () => T): T {
    if (this.db.isTransaction) {
      // Inside a transaction (a group-commit batch, a caller's transaction) a failure undoes only this call.
      this.beginSavepoint();
      try {
        const result = fn();
        this.releaseSavepoint();
        return result;
      } catch (error) {
        this.rollbackToSavepoint();
        throw error;
      }
    }
    this.begin();
    try {
      const result = fn();
      this.commit();
      return result;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  translateError(error: unknown): unknown {
    return translateSqliteError(error, this.path);
  }

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    // The last connection to close folds the WAL into the database file.
    if (this.db.isOpen) this.db.close();
    this.ownerLock?.release();
  }

  // ── Sessions ──────────────────────────────────────────────────────────────

  ensureSession(input: NewSession): { session: SessionRecord; created: boolean } {
    // Most calls find the session: one read; a new one is one INSERT … RETURNING.
    const existing = this.getSession(input.key);
    if (existing !== undefined) return { session: existing, created: false };
    const at = this.now();
    const inserted = this.sql(
      `INSERT INTO sessions (key, agent_id, channel, account_id, chat_id, title, model_override, queue_mode_override,
         settings, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING RETURNING *`,
    ).get(
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
      ? { session: this.requireSession(input.key), created: false }
      : { session: sessionFromRow(inserted), created: true };
  }

  getSession(key: string): SessionRecord | undefined {
    const row = this.sql("SELECT * FROM sessions WHERE key = ?").get(key);
    return row === undefined ? undefined : sessionFromRow(row);
  }

  listSessions(filter: SessionFilter = {}): SessionRecord[] {
    const where = new Where();
    if (filter.agentId !== undefined) where.equals("agent_id", filter.agentId);
    const sql = `SELECT * FROM sessions${where.clause()} ORDER BY updated_at DESC, key${where.limit(filter.limit)}`;
    return this.sql(sql)
      .all(...where.values)
      .map(sessionFromRow);
  }

  updateSession(key: string, patch: SessionPatch): SessionRecord {
    const current = this.requireSession(key);
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
        updatedAt: this.now(),
      },
    );
    this.sql(
      `UPDATE sessions SET title = ?, model_override = ?, queue_mode_override = ?, settings = ?, updated_at = ?,
         memory_extracted_seq = max(memory_extracted_seq, ?)
       WHERE key = ?`,
    ).run(
      next.title ?? null,
      next.modelOverride ?? null,
      next.queueModeOverride ?? null,
      toStoredJson(next.settings, "session settings"),
      next.updatedAt,
      patch.memoryExtractedSeq ?? 0,
      key,
    );
    return this.requireSession(key);
  }

  deleteSession(key: string): boolean {
    // The transcript goes with it (ON DELETE CASCADE).
    return Number(this.sql("DELETE FROM sessions WHERE key = ?").run(key).changes) > 0;
  }

  private requireSession(key: string): SessionRecord {
    const session = this.getSession(key);
    if (session === undefined) throw notFound("session", key);
    return session;
  }

  // ── Transcripts ───────────────────────────────────────────────────────────

  appendMessages(sessionKey: string, messages: readonly AgentMessage[], marks: AppendMarks = {}): AppendResult {
    const json = messages.map((message) => toStoredJson(message, "transcript message"));
    if (json.length === 0) {
      const row =
        marks.answersSeq === undefined
          ? this.sql("SELECT last_seq FROM sessions WHERE key = ?").get(sessionKey)
          : this.sql("UPDATE sessions SET answered_seq = max(answered_seq, ?) WHERE key = ? RETURNING last_seq").get(
              marks.answersSeq,
              sessionKey,
            );
      if (row === undefined) throw notFound("session", sessionKey);
      const previous = Number(row.last_seq);
      return { firstSeq: previous + 1, lastSeq: previous };
    }
    // Reserve the seqs first (one UPDATE … RETURNING instead of a read and a write), recording the marks in the same
    // statement (SET reads the row's old values: last_inbound_seq becomes the new last_seq); callers run this atomically.
    const row = (
      marks.inbound === true
        ? this.sql(
            `UPDATE sessions SET last_seq = last_seq + ?1, last_inbound_seq = last_seq + ?1, updated_at = ?2
             WHERE key = ?3 RETURNING last_seq`,
          ).get(json.length, this.now(), sessionKey)
        : marks.answersSeq !== undefined
          ? this.sql(
              `UPDATE sessions SET last_seq = last_seq + ?1, answered_seq = max(answered_seq, ?4), updated_at = ?2
               WHERE key = ?3 RETURNING last_seq`,
            ).get(json.length, this.now(), sessionKey, marks.answersSeq)
          : this.sql(
              "UPDATE sessions SET last_seq = last_seq + ?, updated_at = ? WHERE key = ? RETURNING last_seq",
            ).get(json.length, this.now(), sessionKey)
    ) as StoredRow | undefined;
    if (row === undefined) throw notFound("session", sessionKey);
    const lastSeq = Number(row.last_seq);
    const insert = this.sql(
      "INSERT INTO transcript_messages (session_key, seq, message, memory_mark) VALUES (?, ?, ?, ?)",
    );
    let seq = lastSeq - json.length;
    for (const message of json) insert.run(sessionKey, ++seq, message, marks.memory ?? null);
    return { firstSeq: lastSeq - json.length + 1, lastSeq };
  }

  listUnansweredSessions(): SessionRecord[] {
    // A scan of the sessions at start-up, not on the message path: no index to keep up on every message.
    return this.sql(
      `SELECT * FROM sessions WHERE last_inbound_seq > answered_seq AND last_inbound_seq >= transcript_start_seq
       ORDER BY updated_at DESC, key`,
    )
      .all()
      .map(sessionFromRow);
  }

  readTranscript(sessionKey: string, options: { fromSeq?: number } = {}): TranscriptEntry[] {
    const rows =
      options.fromSeq === undefined
        ? this.sql(
            `SELECT seq, message, memory_mark FROM transcript_messages
             WHERE session_key = ?1 AND seq >= (SELECT transcript_start_seq FROM sessions WHERE key = ?1)
             ORDER BY seq`,
          ).all(sessionKey)
        : this.sql(
            "SELECT seq, message, memory_mark FROM transcript_messages WHERE session_key = ? AND seq >= ? ORDER BY seq",
          ).all(sessionKey, options.fromSeq);
    return rows.map(transcriptEntryFromRow);
  }

  resetTranscript(sessionKey: string): SessionRecord {
    const changed = this.sql(
      "UPDATE sessions SET transcript_start_seq = last_seq + 1, updated_at = ? WHERE key = ?",
    ).run(this.now(), sessionKey);
    if (Number(changed.changes) === 0) throw notFound("session", sessionKey);
    return this.requireSession(sessionKey);
  }

  // ── Runs ──────────────────────────────────────────────────────────────────

  startRun(input: NewRun): RunRecord {
    let depth = 0;
    if (input.parentRunId !== undefined) {
      const parent = this.getRun(input.parentRunId);
      if (parent === undefined) throw notFound("parent run", input.parentRunId);
      depth = parent.depth + 1;
    }
    // A duplicate id changes nothing: one statement instead of a read and a write. The record is built from what was
    // written (no RETURNING row to decode, no usage JSON to parse on every turn).
    const startedAt = this.now();
    const inserted = this.sql(
      `INSERT INTO runs (id, session_key, parent_run_id, depth, agent_id, status, started_at, usage, traceparent, spawn)
       VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    ).run(
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
    if (Number(inserted.changes) === 0) {
      throw new SessionStoreError("conflict", `A run with id ${JSON.stringify(input.id)} already exists.`);
    }
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

  getRun(id: string): RunRecord | undefined {
    const row = this.sql("SELECT * FROM runs WHERE id = ?").get(id);
    return row === undefined ? undefined : runFromRow(row);
  }

  listRuns(filter: RunFilter = {}): RunRecord[] {
    const where = new Where();
    where.oneOf("status", statusList(filter.status), RUN_STATUSES);
    if (filter.sessionKey !== undefined) where.equals("session_key", filter.sessionKey);
    if (filter.agentId !== undefined) where.equals("agent_id", filter.agentId);
    if (filter.parentRunId !== undefined) where.equals("parent_run_id", filter.parentRunId);
    const sql = `SELECT * FROM runs${where.clause()} ORDER BY started_at, id${where.limit(filter.limit)}`;
    return this.sql(sql)
      .all(...where.values)
      .map(runFromRow);
  }

  updateRun(id: string, patch: RunPatch): RunRecord {
    const status = patch.status ?? null;
    const endedAt = patch.status === undefined ? null : this.now();
    const error = patch.error ?? null;
    // Only a running run changes; no row back means it is unknown or already ended (told apart below).
    let row: StoredRow | undefined;
    if (patch.usage === undefined) {
      row = this.sql(
        `UPDATE runs SET status = coalesce(?, status), ended_at = ?, error = coalesce(?, error)
         WHERE id = ? AND status = 'running' RETURNING *`,
      ).get(status, endedAt, error, id);
      if (row !== undefined) return runFromRow(row);
    } else {
      // The usage just written is not read back: the record takes it from the JSON written, parsed only if read.
      const usage = toStoredJson(patch.usage, "run usage");
      row = this.sql(UPDATE_RUN_WITH_USAGE).get(status, endedAt, usage, error, id);
      if (row !== undefined) return runFromRowWithUsage(row, usage);
    }
    assertRunning(id, this.requireRun(id).status);
    throw notFound("run", id);
  }

  interruptRunningRuns(error?: string): RunRecord[] {
    return this.listRuns({ status: "running" }).map((run) =>
      this.updateRun(run.id, { status: "interrupted", ...(error !== undefined ? { error } : {}) }),
    );
  }

  private requireRun(id: string): RunRecord {
    const run = this.getRun(id);
    if (run === undefined) throw notFound("run", id);
    return run;
  }

  // ── Inbound events ────────────────────────────────────────────────────────

  recordInboundEvent(ref: InboundEventRef): boolean {
    const now = this.now();
    // One statement: insert, or refresh an id whose TTL ran out; an id seen within the TTL changes nothing.
    const result = this.sql(
      `INSERT INTO inbound_events (channel, account_id, event_id, seen_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (channel, account_id, event_id) DO UPDATE SET seen_at = excluded.seen_at
       WHERE inbound_events.seen_at <= ?`,
    ).run(ref.channel, ref.accountId, ref.eventId, now, now - this.inboundTtlMs);
    return Number(result.changes) > 0;
  }

  pruneInboundEvents(limit?: number): number {
    const max = checkLimit(limit);
    const cutoff = this.now() - this.inboundTtlMs;
    if (max === undefined) {
      return Number(this.sql("DELETE FROM inbound_events WHERE seen_at <= ?").run(cutoff).changes);
    }
    // The oldest `max` through the age index: each step touches only what it removes.
    return Number(
      this.sql(
        `DELETE FROM inbound_events WHERE (channel, account_id, event_id) IN
           (SELECT channel, account_id, event_id FROM inbound_events WHERE seen_at <= ? ORDER BY seen_at LIMIT ?)`,
      ).run(cutoff, max).changes,
    );
  }

  // ── Outbox ────────────────────────────────────────────────────────────────

  enqueueOutbox(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    return this.insertOutbox(entries, "pending");
  }

  enqueueClaimedOutbox(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    return this.insertOutbox(entries, "in-flight");
  }

  private insertOutbox(entries: readonly NewOutboxEntry[], status: "pending" | "in-flight"): OutboxEntry[] {
    const payloads = entries.map((entry) => toStoredJson(entry.payload, "outbox payload"));
    const at = this.now();
    // Status and attempts are literals (one cached statement each) so the partial index's WHERE stays plain.
    const insert = this.sql(
      status === "pending"
        ? `INSERT INTO outbox (session_key, run_id, kind, payload, status, created_at, updated_at, next_attempt_at,
             traceparent)
           VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?)`
        : `INSERT INTO outbox (session_key, run_id, kind, payload, status, attempts, created_at, updated_at,
             next_attempt_at, traceparent)
           VALUES (?, ?, ?, ?, 'in-flight', 1, ?, ?, ?, ?)`,
    );
    // The entry is built from what was written (no RETURNING row to decode); the payload is read back as a JSON round
    // trip of the caller's, detached from it, as the memory store gives it.
    return entries.map((entry, index) => {
      const payload = payloads[index] as string;
      const nextAttemptAt = entry.nextAttemptAt ?? at;
      const written = insert.run(
        entry.sessionKey,
        entry.runId ?? null,
        entry.kind,
        payload,
        at,
        at,
        nextAttemptAt,
        entry.traceparent ?? null,
      );
      return {
        id: Number(written.lastInsertRowid),
        sessionKey: entry.sessionKey,
        ...(entry.runId !== undefined ? { runId: entry.runId } : {}),
        kind: entry.kind,
        payload: JSON.parse(payload) as unknown,
        status,
        attempts: status === "pending" ? 0 : 1,
        createdAt: at,
        updatedAt: at,
        nextAttemptAt,
        platformMessageIds: [],
        ...(entry.traceparent !== undefined ? { traceparent: entry.traceparent } : {}),
      };
    });
  }

  getOutboxEntry(id: number): OutboxEntry | undefined {
    const row = this.sql("SELECT * FROM outbox WHERE id = ?").get(id);
    return row === undefined ? undefined : outboxFromRow(row);
  }

  claimOutboxEntry(id: number): OutboxEntry | undefined {
    const row = this.sql(
      `UPDATE outbox SET status = 'in-flight', attempts = attempts + 1, updated_at = ?
       WHERE id = ? AND status = 'pending' RETURNING *`,
    ).get(this.now(), id);
    return row === undefined ? undefined : outboxFromRow(row);
  }

  claimDueOutbox(limit: number, options?: ClaimDueOptions): OutboxEntry[] {
    const max = checkLimit(limit) ?? 1;
    const now = this.now();
    // ?3 null: pending entries only; else also in-flight entries whose claim is at least that old (a lost write).
    const rows = this.sql(
      `UPDATE outbox SET status = 'in-flight', attempts = attempts + 1, updated_at = ?1,
         last_error = CASE WHEN status = 'in-flight' THEN ?4 ELSE last_error END
       WHERE id IN (SELECT id FROM outbox WHERE (status = 'pending' AND next_attempt_at <= ?1)
         OR (?3 IS NOT NULL AND status = 'in-flight' AND updated_at <= ?3) ORDER BY id LIMIT ?2)
       RETURNING *`,
    ).all(now, max, staleClaimBefore(now, options?.reclaimInFlightAfterMs) ?? null, RECLAIMED_IN_FLIGHT_ERROR);
    return rows.map(outboxFromRow).sort((a, b) => a.id - b.id);
  }

  markOutboxSent(id: number, platformMessageIds: readonly string[]): OutboxEntry {
    const ids = JSON.stringify(platformMessageIds);
    const row = this.sql(MARK_OUTBOX_SENT).get(ids, this.now(), id);
    if (row === undefined) {
      this.requireInFlight(id);
      throw new SessionStoreError("invalid-state", `Outbox entry ${id} is not in-flight.`);
    }
    // Senders rarely look at the entry they just marked sent: its payload is parsed only if read.
    return outboxFromRowWithLazyPayload(row, [...platformMessageIds]);
  }

  markOutboxFailed(id: number, failure: OutboxFailure): OutboxEntry {
    this.requireInFlight(id);
    const row = this.sql(
      `UPDATE outbox SET status = ?, last_error = ?, next_attempt_at = coalesce(?, next_attempt_at), updated_at = ?
       WHERE id = ? RETURNING *`,
    ).get(failure.retryAt === undefined ? "failed" : "pending", failure.error, failure.retryAt ?? null, this.now(), id);
    return outboxFromRow(row as StoredRow);
  }

  listOutbox(filter: OutboxFilter = {}): OutboxEntry[] {
    const where = new Where();
    where.oneOf("status", statusList(filter.status), OUTBOX_STATUSES);
    if (filter.sessionKey !== undefined) where.equals("session_key", filter.sessionKey);
    const sql = `SELECT * FROM outbox${where.clause()} ORDER BY id${where.limit(filter.limit)}`;
    return this.sql(sql)
      .all(...where.values)
      .map(outboxFromRow);
  }

  requeueInFlightOutbox(): OutboxEntry[] {
    const rows = this.sql(
      `UPDATE outbox SET status = 'pending', next_attempt_at = ?1, updated_at = ?1 WHERE status = 'in-flight'
       RETURNING *`,
    ).all(this.now());
    return rows.map(outboxFromRow).sort((a, b) => a.id - b.id);
  }

  pruneSentOutbox(before: number, limit?: number): number {
    const max = checkLimit(limit);
    if (max === undefined) {
      return Number(this.sql("DELETE FROM outbox WHERE status = 'sent' AND updated_at < ?").run(before).changes);
    }
    // The oldest `max` through the index of sent entries by age: each step touches only what it removes.
    return Number(
      this.sql(
        `DELETE FROM outbox WHERE id IN
           (SELECT id FROM outbox WHERE status = 'sent' AND updated_at < ? ORDER BY updated_at LIMIT ?)`,
      ).run(before, max).changes,
    );
  }

  private requireInFlight(id: number): void {
    const row = this.sql("SELECT status FROM outbox WHERE id = ?").get(id);
    if (row === undefined) throw notFound("outbox entry", id);
    if (row.status !== "in-flight") {
      throw new SessionStoreError("invalid-state", `Outbox entry ${id} is ${String(row.status)}, not in-flight.`);
    }
  }

  // ── Pairing ───────────────────────────────────────────────────────────────

  insertPending(request: PairingRequest, limits: { maxPending: number; now: number }): PairingInsertResult {
    const { channel, accountId } = request.scope;
    this.sql("DELETE FROM pairing_requests WHERE channel = ? AND account_id = ? AND expires_at <= ?").run(
      channel,
      accountId,
      limits.now,
    );
    const existing = this.sql(
      "SELECT * FROM pairing_requests WHERE channel = ? AND account_id = ? AND sender_id = ? ORDER BY created_at LIMIT 1",
    ).get(channel, accountId, request.senderId);
    if (existing !== undefined) return { status: "exists", request: pairingRequestFromRow(existing) };
    const live = this.sql("SELECT count(*) AS live FROM pairing_requests WHERE channel = ? AND account_id = ?").get(
      channel,
      accountId,
    );
    if (Number(live?.live ?? 0) >= limits.maxPending) return { status: "full" };
    const inserted = this.sql(
      `INSERT INTO pairing_requests (channel, account_id, code, sender_id, sender_name, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (channel, account_id, code) DO NOTHING`,
    ).run(channel, accountId, request.code, request.senderId, request.senderName, request.createdAt, request.expiresAt);
    return Number(inserted.changes) > 0 ? { status: "inserted" } : { status: "code-taken" };
  }

  getPending(scope: PairingScope, code: string): PairingRequest | undefined {
    const row = this.sql("SELECT * FROM pairing_requests WHERE channel = ? AND account_id = ? AND code = ?").get(
      scope.channel,
      scope.accountId,
      code,
    );
    return row === undefined ? undefined : pairingRequestFromRow(row);
  }

  listPending(scope: PairingScope, now: number): PairingRequest[] {
    return this.sql(
      `SELECT * FROM pairing_requests WHERE channel = ? AND account_id = ? AND expires_at > ?
       ORDER BY created_at, code`,
    )
      .all(scope.channel, scope.accountId, now)
      .map(pairingRequestFromRow);
  }

  deletePending(scope: PairingScope, code: string): void {
    this.sql("DELETE FROM pairing_requests WHERE channel = ? AND account_id = ? AND code = ?").run(
      scope.channel,
      scope.accountId,
      code,
    );
  }

  addApproved(scope: PairingScope, senderId: string, approvedAt: number): void {
    this.sql(
      `INSERT INTO paired_senders (channel, account_id, sender_id, approved_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (channel, account_id, sender_id) DO UPDATE SET approved_at = excluded.approved_at`,
    ).run(scope.channel, scope.accountId, senderId, approvedAt);
  }

  isApproved(scope: PairingScope, senderId: string): boolean {
    const row = this.sql(
      "SELECT 1 AS found FROM paired_senders WHERE channel = ? AND account_id = ? AND sender_id = ?",
    ).get(scope.channel, scope.accountId, senderId);
    return row !== undefined;
  }

  putSchedule(schedule: ScheduleRecord): void {
    this.sql(
      `INSERT INTO schedules (id, status, next_run_at, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, next_run_at = excluded.next_run_at,
         data = excluded.data, created_at = excluded.created_at, updated_at = excluded.updated_at`,
    ).run(
      schedule.id,
      schedule.status,
      schedule.nextRunAt ?? null,
      toStoredJson(schedule.data, "schedule's data"),
      schedule.createdAt,
      schedule.updatedAt,
    );
  }

  getSchedule(id: string): ScheduleRecord | undefined {
    const row = this.sqlReadingBigInts("SELECT * FROM schedules WHERE id = ?").get(id);
    return row === undefined ? undefined : scheduleFromRow(row as StoredRow);
  }

  listSchedules(filter: ScheduleFilter = {}): ScheduleRecord[] {
    const where = new Where();
    where.oneOf("status", statusList(filter.status), SCHEDULE_STATUSES);
    return this.sqlReadingBigInts(`SELECT * FROM schedules${where.clause()} ORDER BY created_at, id`)
      .all(...where.values)
      .map((row) => scheduleFromRow(row as StoredRow));
  }

  deleteSchedule(id: string): boolean {
    return Number(this.sql("DELETE FROM schedules WHERE id = ?").run(id).changes) > 0;
  }

  readonly #spend: SpendLedgerOps = spendLedgerOps(
    () => this.spendTable(),
    () => this.now(),
  );
  readonly recordSpend = this.#spend.recordSpend;
  readonly listSpend = this.#spend.listSpend;
  readonly holdSpend = this.#spend.holdSpend;
  readonly settleSpend = this.#spend.settleSpend;

  private spendTable(): SpendTable {
    const KEY = "kind = ? AND subject = ? AND period = ?";
    const heldFrom = (row: unknown): HeldSpend => {
      const held = row as StoredRow;
      return {
        id: String(held.id),
        kind: String(held.kind) as SpendKind,
        subject: String(held.subject),
        period: String(held.period),
        tokens: Number(held.tokens),
        cost: Number(held.cost),
        heldUntil: Number(held.held_until),
      };
    };
    return {
      row: (key) => {
        const row = this.sql(`SELECT * FROM spend_ledger WHERE ${KEY}`).get(key.kind, key.subject, key.period);
        return row === undefined ? undefined : spendRowFromRow(row as StoredRow);
      },
      write: (row) => {
        this.sql(
          `INSERT INTO spend_ledger (kind, subject, period, tokens, cost, reserved_tokens, reserved_cost, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (kind, subject, period) DO UPDATE SET tokens = excluded.tokens, cost = excluded.cost,
             reserved_tokens = excluded.reserved_tokens, reserved_cost = excluded.reserved_cost,
             updated_at = excluded.updated_at`,
        ).run(
          row.kind,
          row.subject,
          row.period,
          row.tokens,
          row.cost,
          row.reservedTokens,
          row.reservedCost,
          row.updatedAt,
        );
      },
      add: (booking, now) => {
        this.sql(
          `INSERT INTO spend_ledger (kind, subject, period, tokens, cost, updated_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (kind, subject, period) DO UPDATE SET tokens = tokens + excluded.tokens,
             cost = cost + excluded.cost, updated_at = excluded.updated_at`,
        ).run(booking.kind, booking.subject, booking.period, booking.tokens, booking.cost, now);
      },
      list: (filter) => {
        const where = new Where();
        if (filter.kind !== undefined) where.equals("kind", filter.kind);
        if (filter.subject !== undefined) where.equals("subject", filter.subject);
        if (filter.fromPeriod !== undefined) where.raw("period >= ?", filter.fromPeriod);
        if (filter.toPeriod !== undefined) where.raw("period <= ?", filter.toPeriod);
        return this.sql(`SELECT * FROM spend_ledger${where.clause()} ORDER BY kind, subject, period`)
          .all(...where.values)
          .map((row) => spendRowFromRow(row as StoredRow));
      },
      holdsOf: (id) => this.sql("SELECT * FROM spend_holds WHERE id = ?").all(id).map(heldFrom),
      lapsedHolds: (key, now) =>
        this.sql(`SELECT * FROM spend_holds WHERE ${KEY} AND held_until < ?`)
          .all(key.kind, key.subject, key.period, now)
          .map(heldFrom),
      addHold: (hold) => {
        this.sql(
          `INSERT INTO spend_holds (id, kind, subject, period, tokens, cost, held_until) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(hold.id, hold.kind, hold.subject, hold.period, hold.tokens, hold.cost, hold.heldUntil);
      },
      deleteHold: (hold) => {
        this.sql(`DELETE FROM spend_holds WHERE id = ? AND ${KEY}`).run(hold.id, hold.kind, hold.subject, hold.period);
      },
    };
  }

  removeApproved(scope: PairingScope, senderId: string): boolean {
    const removed = this.sql("DELETE FROM paired_senders WHERE channel = ? AND account_id = ? AND sender_id = ?").run(
      scope.channel,
      scope.accountId,
      senderId,
    );
    return Number(removed.changes) > 0;
  }
}

/** A WHERE clause built from optional filters, with its bound values in order. */
class Where {
  private readonly conditions: string[] = [];
  readonly values: SQLInputValue[] = [];

  equals(column: string, value: string): void {
    this.conditions.push(`${column} = ?`);
    this.values.push(value);
  }

  /**
   * `column` is one of `values`, written as literals (`status = 'running'`) so that SQLite can use the partial indexes
   * on status. Contract: only values from `allowed` become SQL; any other matches nothing (as in the memory store).
   */
  oneOf(column: string, values: readonly string[] | undefined, allowed: readonly string[]): void {
    if (values === undefined) return;
    const terms = values.filter((value) => allowed.includes(value)).map((value) => `${column} = '${value}'`);
    this.conditions.push(terms.length === 0 ? "0" : terms.length === 1 ? terms[0]! : `(${terms.join(" OR ")})`);
  }

  raw(condition: string, ...values: SQLInputValue[]): void {
    this.conditions.push(condition);
    this.values.push(...values);
  }

  /** A LIMIT clause bound as a value; call it last, after `clause()`. */
  limit(limit: number | undefined): string {
    const checked = checkLimit(limit);
    if (checked === undefined) return "";
    this.values.push(checked);
    return " LIMIT ?";
  }

  clause(): string {
    return this.conditions.length === 0 ? "" : ` WHERE ${this.conditions.join(" AND ")}`;
  }
}
