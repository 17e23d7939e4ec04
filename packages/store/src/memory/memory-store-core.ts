import type { AgentMessage } from "@chorus/core";
import { buildSessionRecord, patched } from "../core/record-builders.js";
import { type SpendLedgerOps, spendLedgerOps } from "../core/spend-ledger.js";
import type { AppendMarks, SessionStoreCore } from "../core/store-core.js";
import {
  assertRunning,
  checkLimit,
  DEFAULT_INBOUND_EVENT_TTL_MS,
  notFound,
  toStoredJson,
} from "../core/store-validation.js";
import type { MemoryMark } from "../memory-mark.js";
import type { PairingInsertResult, PairingRequest, PairingScope } from "../pairing-types.js";
import type {
  AppendResult,
  ClaimDueOptions,
  InboundEventRef,
  NewOutboxEntry,
  NewRun,
  NewSession,
  OutboxEntry,
  OutboxFailure,
  OutboxFilter,
  RunFilter,
  RunPatch,
  RunRecord,
  ScheduleFilter,
  ScheduleRecord,
  SessionFilter,
  SessionPatch,
  SessionRecord,
  TranscriptEntry,
} from "../store-types.js";
import { MemoryInboundEvents } from "./memory-inbound-events.js";
import { MemoryOutboxTable } from "./memory-outbox-table.js";
import { MemoryPairingTable } from "./memory-pairing-table.js";
import { cloneJson, compareText, deepFreeze, markKey } from "./memory-rows.js";
import { MemoryRunTable } from "./memory-run-table.js";
import { MemoryScheduleTable } from "./memory-schedule-table.js";
import { MemorySpendTable } from "./memory-spend-table.js";
import { UndoJournal } from "./undo-journal.js";

/** Options shared by the embedded stores. */
export interface EmbeddedStoreOptions {
  /** The clock (epoch ms). Default `Date.now`. */
  now?: () => number;
  /** How long an inbound event id is remembered. Default 24 h. */
  inboundEventTtlMs?: number;
}

/**
 * The in-memory engine. Records are frozen and replaced, never mutated, so a returned record is a safe snapshot;
 * transcripts and payloads are kept as JSON strings (compact, and no aliasing with the caller's objects).
 * Sessions and their transcripts live here; runs, inbound events, the outbox, pairing, schedules and the spend ledger
 * are tables of their own. All of them write through one `UndoJournal`, so `rollback` undoes a transaction's writes
 * everywhere, in the order they were made.
 */
export class MemoryStoreCore implements SessionStoreCore {
  private readonly now: () => number;
  readonly #journal = new UndoJournal();
  private readonly sessions = new Map<string, SessionRecord>();
  /** Message JSON per session; the message at index i has seq i + 1. */
  private readonly transcripts = new Map<string, string[]>();
  /** Memory marks of transcript messages (`TranscriptEntry.memory`), by `markKey`. */
  private readonly memoryMarks = new Map<string, MemoryMark>();
  /** Per session: the seq of the latest inbound user message, and up to which seq user messages are answered. */
  private readonly replyMarks = new Map<string, { readonly lastInbound: number; readonly answered: number }>();
  readonly #runs: MemoryRunTable;
  readonly #inbound: MemoryInboundEvents;
  readonly #outbox: MemoryOutboxTable;
  readonly #pairing = new MemoryPairingTable(this.#journal);
  readonly #schedules = new MemoryScheduleTable(this.#journal);
  readonly #spendTable = new MemorySpendTable(this.#journal);

  constructor(options: EmbeddedStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    // The tables read the clock through the core, so `now` is called as it always was.
    this.#runs = new MemoryRunTable(this.#journal, () => this.now());
    this.#outbox = new MemoryOutboxTable(this.#journal, () => this.now());
    const inboundTtlMs = options.inboundEventTtlMs ?? DEFAULT_INBOUND_EVENT_TTL_MS;
    this.#inbound = new MemoryInboundEvents(this.#journal, () => this.now(), inboundTtlMs);
  }

  // ── Transactions ──────────────────────────────────────────────────────────

  begin(): void {
    this.#journal.begin();
  }
  commit(): void {
    this.#journal.commit();
  }
  rollback(): void {
    this.#journal.rollback();
  }
  atomically<T>(fn: () => T): T {
    return this.#journal.atomically(fn);
  }

  translateError(error: unknown): unknown {
    return error;
  }

  close(): void {}

  // ── Sessions ──────────────────────────────────────────────────────────────

  ensureSession(input: NewSession): { session: SessionRecord; created: boolean } {
    const existing = this.sessions.get(input.key);
    if (existing !== undefined) return { session: existing, created: false };
    const at = this.now();
    const session = deepFreeze(
      buildSessionRecord(input, input, {
        settings: cloneJson(input.settings ?? {}, "session settings"),
        createdAt: at,
        updatedAt: at,
        lastSeq: 0,
        transcriptStartSeq: 1,
      }),
    );
    this.#journal.put(this.sessions, input.key, session);
    return { session, created: true };
  }

  getSession(key: string): SessionRecord | undefined {
    return this.sessions.get(key);
  }

  listSessions(filter: SessionFilter = {}): SessionRecord[] {
    const limit = checkLimit(filter.limit);
    const found = [...this.sessions.values()].filter(
      (s) => filter.agentId === undefined || s.agentId === filter.agentId,
    );
    found.sort((a, b) => b.updatedAt - a.updatedAt || compareText(a.key, b.key));
    return limit === undefined ? found : found.slice(0, limit);
  }

  updateSession(key: string, patch: SessionPatch): SessionRecord {
    const current = this.requireSession(key);
    const next = deepFreeze(
      buildSessionRecord(
        current,
        {
          title: patched(current.title, patch.title),
          modelOverride: patched(current.modelOverride, patch.modelOverride),
          queueModeOverride: patched(current.queueModeOverride, patch.queueModeOverride),
        },
        {
          ...current,
          settings: patch.settings === undefined ? current.settings : cloneJson(patch.settings, "session settings"),
          updatedAt: this.now(),
          memoryExtractedSeq: Math.max(current.memoryExtractedSeq ?? 0, patch.memoryExtractedSeq ?? 0),
        },
      ),
    );
    this.#journal.put(this.sessions, key, next);
    return next;
  }

  deleteSession(key: string): boolean {
    const transcript = this.transcripts.get(key);
    for (let seq = 1; seq <= (transcript?.length ?? 0); seq++)
      this.#journal.remove(this.memoryMarks, markKey(key, seq));
    this.#journal.remove(this.transcripts, key);
    this.#journal.remove(this.replyMarks, key);
    return this.#journal.remove(this.sessions, key);
  }

  private requireSession(key: string): SessionRecord {
    const session = this.sessions.get(key);
    if (session === undefined) throw notFound("session", key);
    return session;
  }

  // ── Transcripts ───────────────────────────────────────────────────────────

  appendMessages(sessionKey: string, messages: readonly AgentMessage[], marks: AppendMarks = {}): AppendResult {
    const session = this.requireSession(sessionKey);
    const json = messages.map((message) => toStoredJson(message, "transcript message"));
    const firstSeq = session.lastSeq + 1;
    this.#mark(sessionKey, session.lastSeq + json.length, marks);
    if (json.length === 0) return { firstSeq, lastSeq: session.lastSeq };
    let transcript = this.transcripts.get(sessionKey);
    if (transcript === undefined) {
      transcript = [];
      this.#journal.put(this.transcripts, sessionKey, transcript);
    }
    const list = transcript;
    const before = list.length;
    this.#journal.onRollback(() => {
      list.length = before;
    });
    for (const message of json) list.push(message);
    const lastSeq = session.lastSeq + json.length;
    if (marks.memory !== undefined) {
      for (let seq = firstSeq; seq <= lastSeq; seq++)
        this.#journal.put(this.memoryMarks, markKey(sessionKey, seq), marks.memory);
    }
    this.#journal.put(this.sessions, sessionKey, Object.freeze({ ...session, lastSeq, updatedAt: this.now() }));
    return { firstSeq, lastSeq };
  }

  #mark(sessionKey: string, lastSeq: number, marks: AppendMarks): void {
    if (marks.inbound !== true && marks.answersSeq === undefined) return;
    const current = this.replyMarks.get(sessionKey) ?? { lastInbound: 0, answered: 0 };
    this.#journal.put(this.replyMarks, sessionKey, {
      lastInbound: marks.inbound === true ? lastSeq : current.lastInbound,
      answered: Math.max(current.answered, marks.answersSeq ?? 0),
    });
  }

  listUnansweredSessions(): SessionRecord[] {
    const found: SessionRecord[] = [];
    for (const [key, mark] of this.replyMarks) {
      const session = this.sessions.get(key);
      if (session === undefined || mark.lastInbound <= mark.answered) continue;
      if (mark.lastInbound >= session.transcriptStartSeq) found.push(session);
    }
    return found.sort((a, b) => b.updatedAt - a.updatedAt || compareText(a.key, b.key));
  }

  readTranscript(sessionKey: string, options: { fromSeq?: number } = {}): TranscriptEntry[] {
    const session = this.sessions.get(sessionKey);
    const transcript = this.transcripts.get(sessionKey);
    if (session === undefined || transcript === undefined) return [];
    // Seqs are integers: a fractional `fromSeq` starts at the next one, as `seq >= fromSeq` does in SQL.
    const fromSeq = Math.max(1, Math.ceil(options.fromSeq ?? session.transcriptStartSeq));
    const entries: TranscriptEntry[] = [];
    for (let seq = fromSeq; seq <= transcript.length; seq++) {
      const memory = this.memoryMarks.get(markKey(sessionKey, seq));
      const message = JSON.parse(transcript[seq - 1] as string) as AgentMessage;
      entries.push(memory === undefined ? { seq, message } : { seq, message, memory });
    }
    return entries;
  }

  resetTranscript(sessionKey: string): SessionRecord {
    const session = this.requireSession(sessionKey);
    const next = Object.freeze({ ...session, transcriptStartSeq: session.lastSeq + 1, updatedAt: this.now() });
    this.#journal.put(this.sessions, sessionKey, next);
    return next;
  }

  // ── Runs (memory-run-table.ts) ────────────────────────────────────────────

  startOrPatchRun(input: NewRun, patch: RunPatch | undefined): RunRecord {
    const existing = this.getRun(input.id);
    const started = existing ?? this.startRun(input);
    if (patch !== undefined) return this.updateRun(input.id, patch);
    assertRunning(input.id, started.status);
    return started;
  }

  startRun(input: NewRun): RunRecord {
    return this.#runs.start(input);
  }
  getRun(id: string): RunRecord | undefined {
    return this.#runs.get(id);
  }
  listRuns(filter?: RunFilter): RunRecord[] {
    return this.#runs.list(filter);
  }
  updateRun(id: string, patch: RunPatch): RunRecord {
    return this.#runs.update(id, patch);
  }
  interruptRunningRuns(error?: string): RunRecord[] {
    return this.#runs.interruptRunning(error);
  }

  // ── Inbound events (memory-inbound-events.ts) ─────────────────────────────

  recordInboundEvent(ref: InboundEventRef): boolean {
    return this.#inbound.record(ref);
  }
  pruneInboundEvents(limit?: number): number {
    return this.#inbound.prune(limit);
  }

  // ── Outbox (memory-outbox-table.ts) ───────────────────────────────────────

  enqueueOutbox(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    return this.#outbox.enqueue(entries);
  }
  getOutboxEntry(id: number): OutboxEntry | undefined {
    return this.#outbox.get(id);
  }
  enqueueClaimedOutbox(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    return this.#outbox.enqueueClaimed(entries);
  }
  claimOutboxEntry(id: number): OutboxEntry | undefined {
    return this.#outbox.claim(id);
  }
  claimDueOutbox(limit: number, options?: ClaimDueOptions): OutboxEntry[] {
    return this.#outbox.claimDue(limit, options);
  }
  markOutboxSent(id: number, platformMessageIds: readonly string[]): OutboxEntry {
    return this.#outbox.markSent(id, platformMessageIds);
  }
  markOutboxFailed(id: number, failure: OutboxFailure): OutboxEntry {
    return this.#outbox.markFailed(id, failure);
  }
  listOutbox(filter?: OutboxFilter): OutboxEntry[] {
    return this.#outbox.list(filter);
  }
  requeueInFlightOutbox(): OutboxEntry[] {
    return this.#outbox.requeueInFlight();
  }
  pruneSentOutbox(before: number, limit?: number): number {
    return this.#outbox.pruneSent(before, limit);
  }

  // ── Pairing (memory-pairing-table.ts) ─────────────────────────────────────

  insertPending(request: PairingRequest, limits: { maxPending: number; now: number }): PairingInsertResult {
    return this.#pairing.insertPending(request, limits);
  }
  getPending(scope: PairingScope, code: string): PairingRequest | undefined {
    return this.#pairing.getPending(scope, code);
  }
  listPending(scope: PairingScope, now: number): PairingRequest[] {
    return this.#pairing.listPending(scope, now);
  }
  deletePending(scope: PairingScope, code: string): void {
    this.#pairing.deletePending(scope, code);
  }
  addApproved(scope: PairingScope, senderId: string, approvedAt: number): void {
    this.#pairing.addApproved(scope, senderId, approvedAt);
  }
  isApproved(scope: PairingScope, senderId: string): boolean {
    return this.#pairing.isApproved(scope, senderId);
  }
  removeApproved(scope: PairingScope, senderId: string): boolean {
    return this.#pairing.removeApproved(scope, senderId);
  }

  // ── Schedules (memory-schedule-table.ts) ──────────────────────────────────

  putSchedule(schedule: ScheduleRecord): void {
    this.#schedules.put(schedule);
  }
  getSchedule(id: string): ScheduleRecord | undefined {
    return this.#schedules.get(id);
  }
  listSchedules(filter?: ScheduleFilter): ScheduleRecord[] {
    return this.#schedules.list(filter);
  }
  deleteSchedule(id: string): boolean {
    return this.#schedules.delete(id);
  }

  // ── Spend ledger ──────────────────────────────────────────────────────────

  // The rules in spend-ledger.ts, the rows in memory-spend-table.ts.
  readonly #spend: SpendLedgerOps = spendLedgerOps(
    () => this.#spendTable,
    () => this.now(),
  );
  readonly recordSpend = this.#spend.recordSpend;
  readonly listSpend = this.#spend.listSpend;
  readonly holdSpend = this.#spend.holdSpend;
  readonly settleSpend = this.#spend.settleSpend;
}
