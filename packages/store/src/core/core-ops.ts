import type { AgentMessage } from "@chorus/core";
import type { PairingInsertResult, PairingRequest, PairingScope } from "../pairing-types.js";
import type { SessionStoreOps } from "../session-store.js";
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
  RunFilter,
  RunPatch,
  RunRecord,
  ScheduleFilter,
  ScheduleRecord,
  SessionFilter,
  SessionPatch,
  SessionRecord,
  SpendBooking,
  SpendFilter,
  SpendHold,
  SpendHoldResult,
  SpendRow,
  TranscriptEntry,
  TurnCommit,
  TurnCommitResult,
} from "../store-types.js";
import { commitTurnOn } from "./commit-turn.js";
import type { SessionStoreCore } from "./store-core.js";
import { storeInboundMessageOn } from "./store-inbound-message.js";

/**
 * The async operations over a synchronous core. Subclasses decide how a call is admitted (`call`):
 * the store waits for any open transaction; a transaction handle checks it is still open.
 */
export abstract class CoreOps implements SessionStoreOps {
  protected readonly core: SessionStoreCore;

  constructor(core: SessionStoreCore) {
    this.core = core;
  }

  /** Runs a synchronous core operation as a store call (errors become rejections). */
  protected abstract call<T>(op: () => T): Promise<T>;

  /** Runs a synchronous core operation that only reads. Default: as `call`. */
  protected read<T>(op: () => T): Promise<T> {
    return this.call(op);
  }

  ensureSession(input: NewSession): Promise<{ session: SessionRecord; created: boolean }> {
    return this.call(() => this.core.ensureSession(input));
  }
  getSession(key: string): Promise<SessionRecord | undefined> {
    return this.read(() => this.core.getSession(key));
  }
  listSessions(filter?: SessionFilter): Promise<SessionRecord[]> {
    return this.read(() => this.core.listSessions(filter));
  }
  updateSession(key: string, patch: SessionPatch): Promise<SessionRecord> {
    return this.call(() => this.core.updateSession(key, patch));
  }
  deleteSession(key: string): Promise<boolean> {
    return this.call(() => this.core.deleteSession(key));
  }
  appendMessages(sessionKey: string, messages: readonly AgentMessage[]): Promise<AppendResult> {
    return this.call(() => this.core.atomically(() => this.core.appendMessages(sessionKey, messages)));
  }
  readTranscript(sessionKey: string, options?: { fromSeq?: number }): Promise<TranscriptEntry[]> {
    return this.read(() => this.core.readTranscript(sessionKey, options));
  }
  resetTranscript(sessionKey: string): Promise<SessionRecord> {
    return this.call(() => this.core.resetTranscript(sessionKey));
  }
  startRun(input: NewRun): Promise<RunRecord> {
    return this.call(() => this.core.startRun(input));
  }
  getRun(id: string): Promise<RunRecord | undefined> {
    return this.read(() => this.core.getRun(id));
  }
  listRuns(filter?: RunFilter): Promise<RunRecord[]> {
    return this.read(() => this.core.listRuns(filter));
  }
  updateRun(id: string, patch: RunPatch): Promise<RunRecord> {
    return this.call(() => this.core.updateRun(id, patch));
  }
  interruptRunningRuns(error?: string): Promise<RunRecord[]> {
    return this.call(() => this.core.atomically(() => this.core.interruptRunningRuns(error)));
  }
  recordInboundEvent(ref: InboundEventRef): Promise<boolean> {
    return this.call(() => this.core.recordInboundEvent(ref));
  }
  storeInboundMessage(input: NewInboundMessage): Promise<InboundMessageStored | undefined> {
    return this.call(() => storeInboundMessageOn(this.core, input));
  }
  pruneInboundEvents(limit?: number): Promise<number> {
    return this.call(() => this.core.pruneInboundEvents(limit));
  }
  enqueueOutbox(entries: readonly NewOutboxEntry[]): Promise<OutboxEntry[]> {
    return this.call(() => this.core.atomically(() => this.core.enqueueOutbox(entries)));
  }
  getOutboxEntry(id: number): Promise<OutboxEntry | undefined> {
    return this.read(() => this.core.getOutboxEntry(id));
  }
  claimOutboxEntry(id: number): Promise<OutboxEntry | undefined> {
    return this.call(() => this.core.claimOutboxEntry(id));
  }
  claimDueOutbox(limit: number, options?: ClaimDueOptions): Promise<OutboxEntry[]> {
    return this.call(() => this.core.atomically(() => this.core.claimDueOutbox(limit, options)));
  }
  markOutboxSent(id: number, platformMessageIds: readonly string[]): Promise<OutboxEntry> {
    return this.call(() => this.core.markOutboxSent(id, platformMessageIds));
  }
  markOutboxFailed(id: number, failure: OutboxFailure): Promise<OutboxEntry> {
    return this.call(() => this.core.markOutboxFailed(id, failure));
  }
  listOutbox(filter?: OutboxFilter): Promise<OutboxEntry[]> {
    return this.read(() => this.core.listOutbox(filter));
  }
  requeueInFlightOutbox(): Promise<OutboxEntry[]> {
    return this.call(() => this.core.atomically(() => this.core.requeueInFlightOutbox()));
  }
  pruneSentOutbox(before: number, limit?: number): Promise<number> {
    return this.call(() => this.core.pruneSentOutbox(before, limit));
  }
  insertPending(request: PairingRequest, limits: { maxPending: number; now: number }): Promise<PairingInsertResult> {
    return this.call(() => this.core.atomically(() => this.core.insertPending(request, limits)));
  }
  getPending(scope: PairingScope, code: string): Promise<PairingRequest | undefined> {
    return this.read(() => this.core.getPending(scope, code));
  }
  listPending(scope: PairingScope, now: number): Promise<PairingRequest[]> {
    return this.read(() => this.core.listPending(scope, now));
  }
  deletePending(scope: PairingScope, code: string): Promise<void> {
    return this.call(() => this.core.deletePending(scope, code));
  }
  addApproved(scope: PairingScope, senderId: string, approvedAt: number): Promise<void> {
    return this.call(() => this.core.addApproved(scope, senderId, approvedAt));
  }
  isApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    return this.read(() => this.core.isApproved(scope, senderId));
  }
  removeApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    return this.call(() => this.core.removeApproved(scope, senderId));
  }
  putSchedule(schedule: ScheduleRecord): Promise<void> {
    return this.call(() => this.core.putSchedule(schedule));
  }
  getSchedule(id: string): Promise<ScheduleRecord | undefined> {
    return this.read(() => this.core.getSchedule(id));
  }
  listSchedules(filter?: ScheduleFilter): Promise<ScheduleRecord[]> {
    return this.read(() => this.core.listSchedules(filter));
  }
  deleteSchedule(id: string): Promise<boolean> {
    return this.call(() => this.core.deleteSchedule(id));
  }
  recordSpend(bookings: readonly SpendBooking[]): Promise<void> {
    return this.call(() => this.core.atomically(() => this.core.recordSpend(bookings)));
  }
  listSpend(filter?: SpendFilter): Promise<SpendRow[]> {
    return this.read(() => this.core.listSpend(filter));
  }
  holdSpend(hold: SpendHold): Promise<SpendHoldResult> {
    return this.call(() => this.core.atomically(() => this.core.holdSpend(hold)));
  }
  settleSpend(id: string, bookings: readonly SpendBooking[]): Promise<void> {
    return this.call(() => this.core.atomically(() => this.core.settleSpend(id, bookings)));
  }
  listUnansweredSessions(): Promise<SessionRecord[]> {
    return this.read(() => this.core.listUnansweredSessions());
  }
  commitTurn(turn: TurnCommit): Promise<TurnCommitResult> {
    return this.call(() => commitTurnOn(this.core, turn));
  }
}
