import type { AgentMessage } from "@chorus/core";
import type {
  AppendResult,
  ClaimDueOptions,
  InboundEventRef,
  InboundMessageStored,
  NewInboundMessage,
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
  SessionStoreOps,
  SpendBooking,
  SpendFilter,
  SpendHold,
  SpendHoldResult,
  SpendRow,
  TranscriptEntry,
  TurnCommit,
  TurnCommitResult,
} from "@chorus/store";
import type { Db } from "./query-runner.js";
import * as inbound from "./sql/inbound-statements.js";
import * as outbox from "./sql/outbox-statements.js";
import * as pairing from "./sql/pairing-statements.js";
import * as runs from "./sql/run-statements.js";
import * as schedules from "./sql/schedule-statements.js";
import * as sessions from "./sql/session-statements.js";
import * as spend from "./sql/spend-statements.js";
import type { StoreContext } from "./sql/store-context.js";
import * as transcript from "./sql/transcript-statements.js";
import { commitTurnWithSideWrites } from "./sql/turn-side-writes.js";

/**
 * Every store operation as SQL on a `Db`. Subclasses decide where a call runs (`call`): the store on its pool, a
 * transaction handle on its connection; multi-statement operations use `db.atomically`. The hot writes of a message
 * (`write`: the inbound message, the turn's commit, the sent or failed mark) may instead share a group commit.
 */
export abstract class PostgresOps implements SessionStoreOps {
  protected readonly ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.ctx = ctx;
  }

  /** Runs one operation (errors become rejections with `SessionStoreError` where one applies). */
  protected abstract call<T>(op: (db: Db) => Promise<T>): Promise<T>;

  /** Runs one of the hot writes, where the store may batch it with other calls' writes (group commit). */
  protected abstract write<T>(op: (db: Db) => Promise<T>): Promise<T>;

  ensureSession(input: NewSession): Promise<{ session: SessionRecord; created: boolean }> {
    return this.call((db) => sessions.ensureSession(db, this.ctx, input));
  }
  getSession(key: string): Promise<SessionRecord | undefined> {
    return this.call((db) => sessions.getSession(db, key));
  }
  listSessions(filter?: SessionFilter): Promise<SessionRecord[]> {
    return this.call((db) => sessions.listSessions(db, filter));
  }
  updateSession(key: string, patch: SessionPatch): Promise<SessionRecord> {
    return this.call((db) => sessions.updateSession(db, this.ctx, key, patch));
  }
  deleteSession(key: string): Promise<boolean> {
    return this.call((db) => sessions.deleteSession(db, key));
  }
  listUnansweredSessions(): Promise<SessionRecord[]> {
    return this.call((db) => sessions.listUnansweredSessions(db));
  }
  appendMessages(sessionKey: string, messages: readonly AgentMessage[]): Promise<AppendResult> {
    return this.call((db) => transcript.appendMessages(db, this.ctx, sessionKey, messages));
  }
  readTranscript(sessionKey: string, options?: { fromSeq?: number }): Promise<TranscriptEntry[]> {
    return this.call((db) => transcript.readTranscript(db, sessionKey, options));
  }
  resetTranscript(sessionKey: string): Promise<SessionRecord> {
    return this.call((db) => transcript.resetTranscript(db, this.ctx, sessionKey));
  }
  startRun(input: NewRun): Promise<RunRecord> {
    return this.call((db) => runs.startRun(db, this.ctx, input));
  }
  getRun(id: string): Promise<RunRecord | undefined> {
    return this.call((db) => runs.getRun(db, id));
  }
  listRuns(filter?: RunFilter): Promise<RunRecord[]> {
    return this.call((db) => runs.listRuns(db, filter));
  }
  updateRun(id: string, patch: RunPatch): Promise<RunRecord> {
    return this.call((db) => runs.updateRun(db, this.ctx, id, patch));
  }
  interruptRunningRuns(error?: string): Promise<RunRecord[]> {
    return this.call((db) => runs.interruptRunningRuns(db, this.ctx, error));
  }
  recordInboundEvent(ref: InboundEventRef): Promise<boolean> {
    return this.call((db) => inbound.recordInboundEvent(db, this.ctx, ref));
  }
  storeInboundMessage(input: NewInboundMessage): Promise<InboundMessageStored | undefined> {
    return this.write((db) => inbound.storeInboundMessage(db, this.ctx, input));
  }
  pruneInboundEvents(limit?: number): Promise<number> {
    return this.call((db) => inbound.pruneInboundEvents(db, this.ctx, limit));
  }
  enqueueOutbox(entries: readonly NewOutboxEntry[]): Promise<OutboxEntry[]> {
    return this.call((db) => outbox.enqueueOutbox(db, this.ctx, entries));
  }
  getOutboxEntry(id: number): Promise<OutboxEntry | undefined> {
    return this.call((db) => outbox.getOutboxEntry(db, id));
  }
  claimOutboxEntry(id: number): Promise<OutboxEntry | undefined> {
    return this.call((db) => outbox.claimOutboxEntry(db, this.ctx, id));
  }
  claimDueOutbox(limit: number, options?: ClaimDueOptions): Promise<OutboxEntry[]> {
    return this.call((db) => outbox.claimDueOutbox(db, this.ctx, limit, options));
  }
  markOutboxSent(id: number, platformMessageIds: readonly string[]): Promise<OutboxEntry> {
    return this.write((db) => outbox.markOutboxSent(db, this.ctx, id, platformMessageIds));
  }
  markOutboxFailed(id: number, failure: OutboxFailure): Promise<OutboxEntry> {
    return this.write((db) => outbox.markOutboxFailed(db, this.ctx, id, failure));
  }
  listOutbox(filter?: OutboxFilter): Promise<OutboxEntry[]> {
    return this.call((db) => outbox.listOutbox(db, filter));
  }
  requeueInFlightOutbox(): Promise<OutboxEntry[]> {
    return this.call((db) => outbox.requeueInFlightOutbox(db, this.ctx));
  }
  pruneSentOutbox(before: number, limit?: number): Promise<number> {
    return this.call((db) => outbox.pruneSentOutbox(db, before, limit));
  }
  insertPending(request: PairingRequest, limits: { maxPending: number; now: number }): Promise<PairingInsertResult> {
    return this.call((db) => db.atomically((tx) => pairing.insertPending(tx, request, limits)));
  }
  getPending(scope: PairingScope, code: string): Promise<PairingRequest | undefined> {
    return this.call((db) => pairing.getPending(db, scope, code));
  }
  listPending(scope: PairingScope, now: number): Promise<PairingRequest[]> {
    return this.call((db) => pairing.listPending(db, scope, now));
  }
  deletePending(scope: PairingScope, code: string): Promise<void> {
    return this.call((db) => pairing.deletePending(db, scope, code));
  }
  addApproved(scope: PairingScope, senderId: string, approvedAt: number): Promise<void> {
    return this.call((db) => pairing.addApproved(db, scope, senderId, approvedAt));
  }
  isApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    return this.call((db) => pairing.isApproved(db, scope, senderId));
  }
  hasApproved(scope: PairingScope): Promise<boolean> {
    return this.call((db) => pairing.hasApproved(db, scope));
  }
  removeApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    return this.call((db) => pairing.removeApproved(db, scope, senderId));
  }
  putSchedule(schedule: ScheduleRecord): Promise<void> {
    return this.call((db) => schedules.putSchedule(db, schedule));
  }
  getSchedule(id: string): Promise<ScheduleRecord | undefined> {
    return this.call((db) => schedules.getSchedule(db, id));
  }
  listSchedules(filter?: ScheduleFilter): Promise<ScheduleRecord[]> {
    return this.call((db) => schedules.listSchedules(db, filter));
  }
  deleteSchedule(id: string): Promise<boolean> {
    return this.call((db) => schedules.deleteSchedule(db, id));
  }
  recordSpend(bookings: readonly SpendBooking[]): Promise<void> {
    return this.call((db) => spend.recordSpend(db, this.ctx, bookings));
  }
  listSpend(filter?: SpendFilter): Promise<SpendRow[]> {
    return this.call((db) => spend.listSpend(db, filter));
  }
  holdSpend(hold: SpendHold): Promise<SpendHoldResult> {
    return this.call((db) => spend.holdSpend(db, this.ctx, hold));
  }
  settleSpend(id: string, bookings: readonly SpendBooking[]): Promise<void> {
    return this.call((db) => spend.settleSpend(db, this.ctx, id, bookings));
  }
  commitTurn(turn: TurnCommit): Promise<TurnCommitResult> {
    return this.write((db) => commitTurnWithSideWrites(db, this.ctx, turn));
  }
}
