import type { DatabaseSync } from "node:sqlite";
import type { AgentMessage } from "@chorus/core";
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
  PairingInsertResult,
  PairingRequest,
  PairingScope,
  RunFilter,
  RunPatch,
  RunRecord,
  ScheduleFilter,
  ScheduleRecord,
  SessionFilter,
  SessionPatch,
  SessionRecord,
  SpendLedgerOps,
  TranscriptEntry,
} from "@chorus/store";
import { DEFAULT_INBOUND_EVENT_TTL_MS, spendLedgerOps } from "@chorus/store";
import { translateSqliteError } from "./sqlite-errors.js";
import { CachedStatements } from "./statements/cached-statements.js";
import { pruneInboundEvents, recordInboundEvent } from "./statements/inbound-events.js";
import {
  claimDueOutbox,
  claimOutboxEntry,
  markOutboxFailed,
  markOutboxSent,
  requeueInFlightOutbox,
} from "./statements/outbox-delivery.js";
import { enqueueClaimedOutbox, enqueueOutbox } from "./statements/outbox-enqueue.js";
import { pruneSentOutbox } from "./statements/outbox-pruning.js";
import { getOutboxEntry, listOutbox } from "./statements/outbox-reads.js";
import { addApproved, isApproved, removeApproved } from "./statements/paired-senders.js";
import { deletePending, getPending, insertPending, listPending } from "./statements/pairing-requests.js";
import { getRun, interruptRunningRuns, listRuns, startOrPatchRun, startRun, updateRun } from "./statements/runs.js";
import { deleteSchedule, getSchedule, listSchedules, putSchedule } from "./statements/schedules.js";
import { deleteSession, ensureSession, getSession, listSessions, updateSession } from "./statements/sessions.js";
import { sqliteSpendTable } from "./statements/spend-table.js";
import { appendMessages, listUnansweredSessions, readTranscript, resetTranscript } from "./statements/transcript.js";
import type { StoreOwnerLock } from "./store-owner-lock.js";
import type { WalCheckpointer } from "./wal-checkpointer.js";

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
 * a transcript read is one indexed query. It owns the connection and its transactions; each table's statements
 * live in `statements/`, one file per table or concern.
 */
export class SqliteStoreCore implements NestingStoreCore {
  private readonly db: DatabaseSync;
  private readonly path: string;
  private readonly statements: CachedStatements;
  private readonly inboundTtlMs: number;
  private readonly checkpointer: WalCheckpointer | undefined;
  private readonly ownerLock: StoreOwnerLock | undefined;

  constructor(db: DatabaseSync, options: SqliteCoreOptions) {
    this.db = db;
    this.checkpointer = options.checkpointer;
    this.ownerLock = options.ownerLock;
    this.path = options.path;
    this.statements = new CachedStatements(db, options.now);
    this.inboundTtlMs = options.inboundEventTtlMs ?? DEFAULT_INBOUND_EVENT_TTL_MS;
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
    this.statements.sql("SAVEPOINT nested").run();
  }

  releaseSavepoint(): void {
    this.statements.sql("RELEASE nested").run();
  }

  rollbackToSavepoint(): void {
    if (!this.db.isTransaction) return;
    this.statements.sql("ROLLBACK TO nested").run();
    this.statements.sql("RELEASE nested").run();
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

  // ── Sessions and transcripts ──────────────────────────────────────────────

  ensureSession(input: NewSession): { session: SessionRecord; created: boolean } {
    return ensureSession(this.statements, input);
  }

  getSession(key: string): SessionRecord | undefined {
    return getSession(this.statements, key);
  }

  listSessions(filter?: SessionFilter): SessionRecord[] {
    return listSessions(this.statements, filter);
  }

  updateSession(key: string, patch: SessionPatch): SessionRecord {
    return updateSession(this.statements, key, patch);
  }

  deleteSession(key: string): boolean {
    return deleteSession(this.statements, key);
  }

  appendMessages(sessionKey: string, messages: readonly AgentMessage[], marks?: AppendMarks): AppendResult {
    return appendMessages(this.statements, sessionKey, messages, marks);
  }

  listUnansweredSessions(): SessionRecord[] {
    return listUnansweredSessions(this.statements);
  }

  readTranscript(sessionKey: string, options?: { fromSeq?: number }): TranscriptEntry[] {
    return readTranscript(this.statements, sessionKey, options);
  }

  resetTranscript(sessionKey: string): SessionRecord {
    return resetTranscript(this.statements, sessionKey);
  }

  // ── Runs ──────────────────────────────────────────────────────────────────

  startOrPatchRun(input: NewRun, patch: RunPatch | undefined): RunRecord {
    return startOrPatchRun(this.statements, input, patch);
  }

  startRun(input: NewRun): RunRecord {
    return startRun(this.statements, input);
  }

  getRun(id: string): RunRecord | undefined {
    return getRun(this.statements, id);
  }

  listRuns(filter?: RunFilter): RunRecord[] {
    return listRuns(this.statements, filter);
  }

  updateRun(id: string, patch: RunPatch): RunRecord {
    return updateRun(this.statements, id, patch);
  }

  interruptRunningRuns(error?: string): RunRecord[] {
    return interruptRunningRuns(this.statements, error);
  }

  // ── Inbound events ────────────────────────────────────────────────────────

  recordInboundEvent(ref: InboundEventRef): boolean {
    return recordInboundEvent(this.statements, ref, this.inboundTtlMs);
  }

  pruneInboundEvents(limit?: number): number {
    return pruneInboundEvents(this.statements, this.inboundTtlMs, limit);
  }

  // ── Outbox ────────────────────────────────────────────────────────────────

  enqueueOutbox(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    return enqueueOutbox(this.statements, entries);
  }

  enqueueClaimedOutbox(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    return enqueueClaimedOutbox(this.statements, entries);
  }

  getOutboxEntry(id: number): OutboxEntry | undefined {
    return getOutboxEntry(this.statements, id);
  }

  claimOutboxEntry(id: number): OutboxEntry | undefined {
    return claimOutboxEntry(this.statements, id);
  }

  claimDueOutbox(limit: number, options?: ClaimDueOptions): OutboxEntry[] {
    return claimDueOutbox(this.statements, limit, options);
  }

  markOutboxSent(id: number, platformMessageIds: readonly string[]): OutboxEntry {
    return markOutboxSent(this.statements, id, platformMessageIds);
  }

  markOutboxFailed(id: number, failure: OutboxFailure): OutboxEntry {
    return markOutboxFailed(this.statements, id, failure);
  }

  listOutbox(filter?: OutboxFilter): OutboxEntry[] {
    return listOutbox(this.statements, filter);
  }

  requeueInFlightOutbox(): OutboxEntry[] {
    return requeueInFlightOutbox(this.statements);
  }

  pruneSentOutbox(before: number, limit?: number): number {
    return pruneSentOutbox(this.statements, before, limit);
  }

  // ── Pairing ───────────────────────────────────────────────────────────────

  insertPending(request: PairingRequest, limits: { maxPending: number; now: number }): PairingInsertResult {
    return insertPending(this.statements, request, limits);
  }

  getPending(scope: PairingScope, code: string): PairingRequest | undefined {
    return getPending(this.statements, scope, code);
  }

  listPending(scope: PairingScope, now: number): PairingRequest[] {
    return listPending(this.statements, scope, now);
  }

  deletePending(scope: PairingScope, code: string): void {
    deletePending(this.statements, scope, code);
  }

  addApproved(scope: PairingScope, senderId: string, approvedAt: number): void {
    addApproved(this.statements, scope, senderId, approvedAt);
  }

  isApproved(scope: PairingScope, senderId: string): boolean {
    return isApproved(this.statements, scope, senderId);
  }

  removeApproved(scope: PairingScope, senderId: string): boolean {
    return removeApproved(this.statements, scope, senderId);
  }

  // ── Schedules ─────────────────────────────────────────────────────────────

  putSchedule(schedule: ScheduleRecord): void {
    putSchedule(this.statements, schedule);
  }

  getSchedule(id: string): ScheduleRecord | undefined {
    return getSchedule(this.statements, id);
  }

  listSchedules(filter?: ScheduleFilter): ScheduleRecord[] {
    return listSchedules(this.statements, filter);
  }

  deleteSchedule(id: string): boolean {
    return deleteSchedule(this.statements, id);
  }

  // ── Spend ─────────────────────────────────────────────────────────────────

  // The ledger's rules are shared with the memory store; only its table is SQLite's (a fresh view per operation).
  readonly #spend: SpendLedgerOps = spendLedgerOps(
    () => sqliteSpendTable(this.statements),
    () => this.statements.now(),
  );
  readonly recordSpend = this.#spend.recordSpend;
  readonly listSpend = this.#spend.listSpend;
  readonly holdSpend = this.#spend.holdSpend;
  readonly settleSpend = this.#spend.settleSpend;
}
