import type { AgentMessage } from "@chorus/core";
import type { PairingInsertResult, PairingRequest, PairingScope } from "../../policy/index.js";
import { RECLAIMED_IN_FLIGHT_ERROR, staleClaimBefore } from "../core/reclaimed-in-flight.js";
import { buildRunRecord, buildSessionRecord, patched } from "../core/record-builders.js";
import {
  addByRewrite,
  compareSpendKeys,
  type HeldSpend,
  type SpendLedgerOps,
  type SpendTable,
  spendKeyText,
  spendLedgerOps,
} from "../core/spend-ledger.js";
import type { AppendMarks, SessionStoreCore } from "../core/store-core.js";
import {
  assertRunning,
  checkLimit,
  DEFAULT_INBOUND_EVENT_TTL_MS,
  notFound,
  statusList,
  toStoredJson,
} from "../core/store-validation.js";
import { zeroUsage } from "../core/zero-usage.js";
import type { MemoryMark } from "../memory-mark.js";
import { SessionStoreError } from "../session-store-error.js";
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
  OutboxStatus,
  RunFilter,
  RunPatch,
  RunRecord,
  ScheduleFilter,
  ScheduleRecord,
  SessionFilter,
  SessionPatch,
  SessionRecord,
  SpendKey,
  SpendRow,
  TranscriptEntry,
} from "../store-types.js";

/** An outbox entry as held in memory: the payload stays a JSON string until read. */
type HeldOutboxEntry = Omit<OutboxEntry, "payload"> & { readonly payloadJson: string };

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
 * Inside a transaction every write logs its inverse, and `rollback` replays them backwards.
 */
export class MemoryStoreCore implements SessionStoreCore {
  private readonly now: () => number;
  private readonly inboundTtlMs: number;
  private readonly sessions = new Map<string, SessionRecord>();
  /** Message JSON per session; the message at index i has seq i + 1. */
  private readonly transcripts = new Map<string, string[]>();
  /** Memory marks of transcript messages (`TranscriptEntry.memory`), by `markKey`. */
  private readonly memoryMarks = new Map<string, MemoryMark>();
  private readonly runs = new Map<string, RunRecord>();
  /** Per session: the seq of the latest inbound user message, and up to which seq user messages are answered. */
  private readonly replyMarks = new Map<string, { readonly lastInbound: number; readonly answered: number }>();
  /** Inbound event key → when it was seen. */
  private readonly inbound = new Map<string, number>();
  private readonly outbox = new Map<number, HeldOutboxEntry>();
  /** Ids of pending and in-flight entries, so claiming never walks the sent history. */
  private readonly unsentOutbox = new Set<number>();
  /** Pending pairing requests by [channel, account, code]. */
  private readonly pairingRequests = new Map<string, PairingRequest>();
  /** Approved senders by [channel, account, sender] → when approved. */
  private readonly pairedSenders = new Map<string, number>();
  private nextOutboxId = 1;
  /** Schedules by id; `data` kept as its JSON text. */
  private readonly schedules = new Map<string, Omit<ScheduleRecord, "data"> & { readonly dataJson: string }>();
  /** Spend ledger rows by `spendKeyText`, and holds by `id` + row. */
  private readonly spendRows = new Map<string, SpendRow>();
  private readonly spendHolds = new Map<string, HeldSpend>();
  private undoLog: (() => void)[] | undefined;

  constructor(options: EmbeddedStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.inboundTtlMs = options.inboundEventTtlMs ?? DEFAULT_INBOUND_EVENT_TTL_MS;
  }

  // ── Transactions ──────────────────────────────────────────────────────────

  begin(): void {
    this.undoLog = [];
  }

  commit(): void {
    this.undoLog = undefined;
  }

  rollback(): void {
    const log = this.undoLog ?? [];
    this.undoLog = undefined;
    for (let i = log.length - 1; i >= 0; i--) log[i]?.();
  }

  atomically<T>(fn: () => T): T {
    if (this.undoLog !== undefined) return fn();
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
    return error;
  }

  close(): void {}

  private put<K, V>(map: Map<K, V>, key: K, value: V): void {
    if (this.undoLog !== undefined) {
      const had = map.has(key);
      const previous = map.get(key);
      this.undoLog.push(() => (had ? map.set(key, previous as V) : map.delete(key)));
    }
    map.set(key, value);
  }

  private setMember<T>(set: Set<T>, value: T, present: boolean): void {
    if (set.has(value) === present) return;
    if (this.undoLog !== undefined) this.undoLog.push(() => (present ? set.delete(value) : set.add(value)));
    if (present) set.add(value);
    else set.delete(value);
  }

  private remove<K, V>(map: Map<K, V>, key: K): boolean {
    if (!map.has(key)) return false;
    if (this.undoLog !== undefined) {
      const previous = map.get(key) as V;
      this.undoLog.push(() => map.set(key, previous));
    }
    return map.delete(key);
  }

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
    this.put(this.sessions, input.key, session);
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
    this.put(this.sessions, key, next);
    return next;
  }

  deleteSession(key: string): boolean {
    const transcript = this.transcripts.get(key);
    for (let seq = 1; seq <= (transcript?.length ?? 0); seq++) this.remove(this.memoryMarks, markKey(key, seq));
    this.remove(this.transcripts, key);
    this.remove(this.replyMarks, key);
    return this.remove(this.sessions, key);
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
      this.put(this.transcripts, sessionKey, transcript);
    }
    const list = transcript;
    const before = list.length;
    if (this.undoLog !== undefined) {
      this.undoLog.push(() => {
        list.length = before;
      });
    }
    for (const message of json) list.push(message);
    const lastSeq = session.lastSeq + json.length;
    if (marks.memory !== undefined) {
      for (let seq = firstSeq; seq <= lastSeq; seq++)
        this.put(this.memoryMarks, markKey(sessionKey, seq), marks.memory);
    }
    this.put(this.sessions, sessionKey, Object.freeze({ ...session, lastSeq, updatedAt: this.now() }));
    return { firstSeq, lastSeq };
  }

  #mark(sessionKey: string, lastSeq: number, marks: AppendMarks): void {
    if (marks.inbound !== true && marks.answersSeq === undefined) return;
    const current = this.replyMarks.get(sessionKey) ?? { lastInbound: 0, answered: 0 };
    this.put(this.replyMarks, sessionKey, {
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
    this.put(this.sessions, sessionKey, next);
    return next;
  }

  // ── Runs ──────────────────────────────────────────────────────────────────

  startRun(input: NewRun): RunRecord {
    if (this.runs.has(input.id)) {
      throw new SessionStoreError("conflict", `A run with id ${JSON.stringify(input.id)} already exists.`);
    }
    let depth = 0;
    if (input.parentRunId !== undefined) {
      const parent = this.runs.get(input.parentRunId);
      if (parent === undefined) throw notFound("parent run", input.parentRunId);
      depth = parent.depth + 1;
    }
    const run = deepFreeze(
      buildRunRecord({ ...input, depth, status: "running", startedAt: this.now(), usage: zeroUsage() }),
    );
    this.put(this.runs, input.id, run);
    return run;
  }

  getRun(id: string): RunRecord | undefined {
    return this.runs.get(id);
  }

  listRuns(filter: RunFilter = {}): RunRecord[] {
    const limit = checkLimit(filter.limit);
    const statuses = statusList(filter.status);
    const found = [...this.runs.values()].filter(
      (r) =>
        (statuses === undefined || statuses.includes(r.status)) &&
        (filter.sessionKey === undefined || r.sessionKey === filter.sessionKey) &&
        (filter.agentId === undefined || r.agentId === filter.agentId) &&
        (filter.parentRunId === undefined || r.parentRunId === filter.parentRunId),
    );
    found.sort((a, b) => a.startedAt - b.startedAt || compareText(a.id, b.id));
    return limit === undefined ? found : found.slice(0, limit);
  }

  updateRun(id: string, patch: RunPatch): RunRecord {
    const current = this.runs.get(id);
    if (current === undefined) throw notFound("run", id);
    assertRunning(id, current.status);
    const next = deepFreeze(
      buildRunRecord({
        ...current,
        status: patch.status ?? current.status,
        endedAt: patch.status === undefined ? undefined : this.now(),
        usage: patch.usage === undefined ? current.usage : cloneJson(patch.usage, "run usage"),
        error: patch.error ?? current.error,
      }),
    );
    this.put(this.runs, id, next);
    return next;
  }

  interruptRunningRuns(error?: string): RunRecord[] {
    const running = this.listRuns({ status: "running" });
    return running.map((run) =>
      this.updateRun(run.id, { status: "interrupted", ...(error !== undefined ? { error } : {}) }),
    );
  }

  // ── Inbound events ────────────────────────────────────────────────────────

  recordInboundEvent(ref: InboundEventRef): boolean {
    const key = JSON.stringify([ref.channel, ref.accountId, ref.eventId]);
    const now = this.now();
    const seenAt = this.inbound.get(key);
    if (seenAt !== undefined && seenAt > now - this.inboundTtlMs) return false;
    // Re-inserted, not updated in place: the map stays in the order ids were seen, so pruning stops at the first live one.
    this.remove(this.inbound, key);
    this.put(this.inbound, key, now);
    return true;
  }

  pruneInboundEvents(limit?: number): number {
    const max = checkLimit(limit) ?? Number.POSITIVE_INFINITY;
    const cutoff = this.now() - this.inboundTtlMs;
    let removed = 0;
    for (const [key, seenAt] of this.inbound) {
      if (removed >= max || seenAt > cutoff) break;
      if (this.remove(this.inbound, key)) removed++;
    }
    return removed;
  }

  // ── Outbox ────────────────────────────────────────────────────────────────

  enqueueOutbox(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    const payloads = entries.map((entry) => toStoredJson(entry.payload, "outbox payload"));
    const at = this.now();
    return entries.map((entry, index) => {
      const held: HeldOutboxEntry = Object.freeze({
        id: this.nextOutboxId++,
        sessionKey: entry.sessionKey,
        ...(entry.runId !== undefined ? { runId: entry.runId } : {}),
        kind: entry.kind,
        payloadJson: payloads[index] as string,
        status: "pending",
        attempts: 0,
        createdAt: at,
        updatedAt: at,
        nextAttemptAt: entry.nextAttemptAt ?? at,
        platformMessageIds: Object.freeze([]),
        ...(entry.traceparent !== undefined ? { traceparent: entry.traceparent } : {}),
      });
      this.put(this.outbox, held.id, held);
      this.setMember(this.unsentOutbox, held.id, true);
      return reveal(held);
    });
  }

  getOutboxEntry(id: number): OutboxEntry | undefined {
    const held = this.outbox.get(id);
    return held === undefined ? undefined : reveal(held);
  }

  enqueueClaimedOutbox(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    return this.enqueueOutbox(entries).map((entry) => this.claimOutboxEntry(entry.id) ?? entry);
  }

  claimOutboxEntry(id: number): OutboxEntry | undefined {
    const held = this.outbox.get(id);
    if (held === undefined || held.status !== "pending") return undefined;
    return this.replaceOutbox(held, { status: "in-flight", attempts: held.attempts + 1 });
  }

  claimDueOutbox(limit: number, options?: ClaimDueOptions): OutboxEntry[] {
    const max = checkLimit(limit) ?? 1;
    const now = this.now();
    const staleBefore = staleClaimBefore(now, options?.reclaimInFlightAfterMs);
    const stale = (held: HeldOutboxEntry): boolean =>
      staleBefore !== undefined && held.status === "in-flight" && held.updatedAt <= staleBefore;
    const due = this.unsentEntries()
      .filter((held) => (held.status === "pending" && held.nextAttemptAt <= now) || stale(held))
      .sort((a, b) => a.id - b.id)
      .slice(0, max);
    return due.map((held) =>
      this.replaceOutbox(held, {
        status: "in-flight",
        attempts: held.attempts + 1,
        ...(stale(held) ? { lastError: RECLAIMED_IN_FLIGHT_ERROR } : {}),
      }),
    );
  }

  markOutboxSent(id: number, platformMessageIds: readonly string[]): OutboxEntry {
    const held = this.requireInFlight(id);
    const { lastError: _dropped, ...rest } = held;
    return this.replaceOutbox(rest, { status: "sent", platformMessageIds: Object.freeze([...platformMessageIds]) });
  }

  markOutboxFailed(id: number, failure: OutboxFailure): OutboxEntry {
    const held = this.requireInFlight(id);
    if (failure.retryAt === undefined) return this.replaceOutbox(held, { status: "failed", lastError: failure.error });
    return this.replaceOutbox(held, { status: "pending", lastError: failure.error, nextAttemptAt: failure.retryAt });
  }

  listOutbox(filter: OutboxFilter = {}): OutboxEntry[] {
    const limit = checkLimit(filter.limit);
    const statuses = statusList<OutboxStatus>(filter.status);
    const found = [...this.outbox.values()]
      .filter(
        (held) =>
          (statuses === undefined || statuses.includes(held.status)) &&
          (filter.sessionKey === undefined || held.sessionKey === filter.sessionKey),
      )
      .sort((a, b) => a.id - b.id);
    return (limit === undefined ? found : found.slice(0, limit)).map(reveal);
  }

  requeueInFlightOutbox(): OutboxEntry[] {
    const now = this.now();
    return this.unsentEntries()
      .filter((held) => held.status === "in-flight")
      .sort((a, b) => a.id - b.id)
      .map((held) => this.replaceOutbox(held, { status: "pending", nextAttemptAt: now }));
  }

  pruneSentOutbox(before: number, limit?: number): number {
    const max = checkLimit(limit) ?? Number.POSITIVE_INFINITY;
    let removed = 0;
    // In id order, which is creation order: an entry created at or after `before` was updated after it too, as was
    // every later one.
    for (const held of this.outbox.values()) {
      if (removed >= max || held.createdAt >= before) break;
      if (held.status === "sent" && held.updatedAt < before && this.remove(this.outbox, held.id)) removed++;
    }
    return removed;
  }

  private requireInFlight(id: number): HeldOutboxEntry {
    const held = this.outbox.get(id);
    if (held === undefined) throw notFound("outbox entry", id);
    if (held.status !== "in-flight") {
      throw new SessionStoreError("invalid-state", `Outbox entry ${id} is ${held.status}, not in-flight.`);
    }
    return held;
  }

  private replaceOutbox(held: HeldOutboxEntry, change: Partial<HeldOutboxEntry>): OutboxEntry {
    const next: HeldOutboxEntry = Object.freeze({ ...held, ...change, updatedAt: this.now() });
    this.put(this.outbox, next.id, next);
    this.setMember(this.unsentOutbox, next.id, next.status === "pending" || next.status === "in-flight");
    return reveal(next);
  }

  private unsentEntries(): HeldOutboxEntry[] {
    const entries: HeldOutboxEntry[] = [];
    for (const id of this.unsentOutbox) {
      const held = this.outbox.get(id);
      if (held !== undefined) entries.push(held);
    }
    return entries;
  }

  // ── Pairing ───────────────────────────────────────────────────────────────

  insertPending(request: PairingRequest, limits: { maxPending: number; now: number }): PairingInsertResult {
    const inScope = this.requestsIn(request.scope);
    for (const stale of inScope.filter((r) => r.expiresAt <= limits.now)) {
      this.remove(this.pairingRequests, requestKey(stale.scope, stale.code));
    }
    const live = inScope.filter((r) => r.expiresAt > limits.now);
    const existing = live.find((r) => r.senderId === request.senderId);
    if (existing !== undefined) return { status: "exists", request: existing };
    if (live.length >= limits.maxPending) return { status: "full" };
    if (live.some((r) => r.code === request.code)) return { status: "code-taken" };
    const stored: PairingRequest = Object.freeze({ ...request, scope: Object.freeze({ ...request.scope }) });
    this.put(this.pairingRequests, requestKey(request.scope, request.code), stored);
    return { status: "inserted" };
  }

  getPending(scope: PairingScope, code: string): PairingRequest | undefined {
    return this.pairingRequests.get(requestKey(scope, code));
  }

  listPending(scope: PairingScope, now: number): PairingRequest[] {
    return this.requestsIn(scope)
      .filter((r) => r.expiresAt > now)
      .sort((a, b) => a.createdAt - b.createdAt || compareText(a.code, b.code));
  }

  deletePending(scope: PairingScope, code: string): void {
    this.remove(this.pairingRequests, requestKey(scope, code));
  }

  addApproved(scope: PairingScope, senderId: string, approvedAt: number): void {
    this.put(this.pairedSenders, senderKey(scope, senderId), approvedAt);
  }

  isApproved(scope: PairingScope, senderId: string): boolean {
    return this.pairedSenders.has(senderKey(scope, senderId));
  }

  removeApproved(scope: PairingScope, senderId: string): boolean {
    return this.remove(this.pairedSenders, senderKey(scope, senderId));
  }

  putSchedule(schedule: ScheduleRecord): void {
    const { data, ...rest } = schedule;
    this.put(this.schedules, schedule.id, Object.freeze({ ...rest, dataJson: toStoredJson(data, "schedule's data") }));
  }

  getSchedule(id: string): ScheduleRecord | undefined {
    const held = this.schedules.get(id);
    return held === undefined ? undefined : scheduleOf(held);
  }

  listSchedules(filter: ScheduleFilter = {}): ScheduleRecord[] {
    const statuses = statusList(filter.status);
    return [...this.schedules.values()]
      .filter((held) => statuses === undefined || statuses.includes(held.status))
      .sort((a, b) => a.createdAt - b.createdAt || compareText(a.id, b.id))
      .map(scheduleOf);
  }

  deleteSchedule(id: string): boolean {
    return this.remove(this.schedules, id);
  }

  // ── Spend ledger ──────────────────────────────────────────────────────────

  // Spend ledger: the rules in spend-ledger.ts, the rows in the maps above (`spendTable`).
  readonly #spend: SpendLedgerOps = spendLedgerOps(
    () => this.spendTable(),
    () => this.now(),
  );
  readonly recordSpend = this.#spend.recordSpend;
  readonly listSpend = this.#spend.listSpend;
  readonly holdSpend = this.#spend.holdSpend;
  readonly settleSpend = this.#spend.settleSpend;

  private spendTable(): SpendTable {
    const holdKey = (hold: HeldSpend) => `${hold.id}\u0001${spendKeyText(hold)}`;
    const row = (key: SpendKey) => this.spendRows.get(spendKeyText(key));
    const write = (next: SpendRow) => this.put(this.spendRows, spendKeyText(next), Object.freeze({ ...next }));
    return {
      row,
      write,
      add: (booking, now) => addByRewrite({ row, write }, booking, now),
      list: (filter) =>
        [...this.spendRows.values()]
          .filter(
            (row) =>
              (filter.kind === undefined || row.kind === filter.kind) &&
              (filter.subject === undefined || row.subject === filter.subject) &&
              (filter.fromPeriod === undefined || row.period >= filter.fromPeriod) &&
              (filter.toPeriod === undefined || row.period <= filter.toPeriod),
          )
          .sort(compareSpendKeys),
      holdsOf: (id) => [...this.spendHolds.values()].filter((hold) => hold.id === id),
      lapsedHolds: (key, now) =>
        [...this.spendHolds.values()].filter(
          (hold) => spendKeyText(hold) === spendKeyText(key) && hold.heldUntil < now,
        ),
      addHold: (hold) => this.put(this.spendHolds, holdKey(hold), Object.freeze({ ...hold })),
      deleteHold: (hold) => {
        this.remove(this.spendHolds, holdKey(hold));
      },
    };
  }

  private requestsIn(scope: PairingScope): PairingRequest[] {
    return [...this.pairingRequests.values()].filter(
      (r) => r.scope.channel === scope.channel && r.scope.accountId === scope.accountId,
    );
  }
}

function requestKey(scope: PairingScope, code: string): string {
  return JSON.stringify([scope.channel, scope.accountId, code]);
}

function senderKey(scope: PairingScope, senderId: string): string {
  return JSON.stringify([scope.channel, scope.accountId, senderId]);
}

/** The outbox entry a caller sees: the payload parsed afresh, so callers never share objects with the store. */
function reveal(held: HeldOutboxEntry): OutboxEntry {
  const { payloadJson, ...rest } = held;
  return { ...rest, payload: JSON.parse(payloadJson) as unknown };
}

/** A JSON round trip: the same value the SQLite store would give back, detached from the caller's objects. */
function cloneJson<T>(value: T, what: string): T {
  return JSON.parse(toStoredJson(value, what)) as T;
}

/** Freezes a record and everything inside it (records are JSON data). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Code-unit order, matching SQLite's BINARY collation for the ids used here. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function scheduleOf(held: Omit<ScheduleRecord, "data"> & { readonly dataJson: string }): ScheduleRecord {
  const { dataJson, ...rest } = held;
  return { ...rest, data: JSON.parse(dataJson) as ScheduleRecord["data"] };
}

/** The key of one transcript message's memory mark. */
function markKey(sessionKey: string, seq: number): string {
  return `${sessionKey}\n${seq}`;
}
