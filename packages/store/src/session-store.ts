import type { AgentMessage } from "@chorus/core";
import type { PairingStore } from "./pairing-types.js";
import type { SessionOwnership } from "./session-ownership.js";
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
} from "./store-types.js";

/**
 * Every read and write the gateway makes on its durable state. Methods are async so that a
 * networked implementation (Postgres) fits the same shape; the embedded ones answer synchronously inside.
 * Contract for all methods: failures reject with a `SessionStoreError`; records returned are
 * snapshots (never live views) and must not be mutated; times are epoch milliseconds from the store's clock.
 * It is also the gateway's `PairingStore`: pass it to `PairingService`.
 */
export interface SessionStoreOps extends PairingStore {
  // ── Sessions ──────────────────────────────────────────────────────────────

  /** Returns the session with `input.key`, creating it from `input` if missing. Contract: never overwrites an existing session. */
  ensureSession(input: NewSession): Promise<{ session: SessionRecord; created: boolean }>;
  /** Contract: `undefined` when there is no such session. */
  getSession(key: string): Promise<SessionRecord | undefined>;
  /** Contract: most recently updated first, then by key. */
  listSessions(filter?: SessionFilter): Promise<SessionRecord[]>;
  /** Applies `patch` and bumps `updatedAt`. Contract: rejects with `not-found` for an unknown session. */
  updateSession(key: string, patch: SessionPatch): Promise<SessionRecord>;
  /** Removes the session and its transcript (runs and outbox entries stay as history). Contract: `false` if it did not exist. */
  deleteSession(key: string): Promise<boolean>;

  // ── Transcripts (append-only) ─────────────────────────────────────────────

  /**
   * Appends messages to a session's transcript with the next seqs, in order, atomically.
   * Contract: rejects with `not-found` for an unknown session and `invalid-input` for a message that is not JSON.
   */
  appendMessages(sessionKey: string, messages: readonly AgentMessage[]): Promise<AppendResult>;
  /**
   * The transcript in seq order, from `fromSeq` (default: the session's `transcriptStartSeq`).
   * Contract: one read; `[]` for an unknown session; messages come back as JSON round-trips of what was appended.
   */
  readTranscript(sessionKey: string, options?: { fromSeq?: number }): Promise<TranscriptEntry[]>;
  /**
   * Starts the conversation afresh (`/new`, `/reset`): later default reads see only messages appended after this call.
   * Contract: nothing is deleted (append-only); seqs keep increasing; rejects with `not-found` for an unknown session.
   */
  resetTranscript(sessionKey: string): Promise<SessionRecord>;

  // ── Runs (the fleet registry) ─────────────────────────────────────────────

  /**
   * Registers a running run. Depth is 0 without a parent, else the parent's depth + 1.
   * Contract: rejects with `conflict` for a duplicate id and `not-found` for an unknown parent.
   */
  startRun(input: NewRun): Promise<RunRecord>;
  /** Contract: `undefined` when there is no such run. */
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Contract: oldest first, then by id. */
  listRuns(filter?: RunFilter): Promise<RunRecord[]>;
  /**
   * Updates a running run's usage or error, and ends it when `patch.status` is given (stamping `endedAt`).
   * Contract: rejects with `not-found` for an unknown run and `invalid-state` when the run already ended.
   */
  updateRun(id: string, patch: RunPatch): Promise<RunRecord>;
  /**
   * Crash recovery at start: marks every `running` run `interrupted` (with `error`, if given) and returns them.
   * Contract: call once before taking messages; afterwards no run is `running`.
   */
  interruptRunningRuns(error?: string): Promise<RunRecord[]>;

  // ── Inbound event dedupe ──────────────────────────────────────────────────

  /**
   * Records a platform event id. Contract: `true` if it was not seen within the TTL (24 h by default) — handle it;
   * `false` if it was — drop it. Durable in durable stores, so replays after a restart are dropped too.
   */
  recordInboundEvent(ref: InboundEventRef): Promise<boolean>;
  /**
   * Stores an inbound platform message in one transaction: records `event` (dedupe), ensures `session` and appends
   * `message` to its transcript.
   * Contract: all or nothing; resolves `undefined` and writes nothing when the event id was seen within the TTL (a
   * replay); rejects with `invalid-input` for a message that is not JSON, leaving the event id unrecorded so that a
   * platform replay is handled.
   */
  storeInboundMessage(input: NewInboundMessage): Promise<InboundMessageStored | undefined>;
  /**
   * Forgets event ids older than the TTL, oldest first; at most `limit` of them when given (so that a large backlog
   * can be pruned in short steps). Contract: returns how many were removed.
   */
  pruneInboundEvents(limit?: number): Promise<number>;

  // ── Outbox ────────────────────────────────────────────────────────────────

  /** Adds pending deliveries. Contract: returned in input order with fresh ids; rejects with `invalid-input` for a non-JSON payload. */
  enqueueOutbox(entries: readonly NewOutboxEntry[]): Promise<OutboxEntry[]>;
  /** Contract: `undefined` when there is no such entry. */
  getOutboxEntry(id: number): Promise<OutboxEntry | undefined>;
  /**
   * Claims one entry for a send: `pending` → `in-flight`, attempts + 1, whether due or not.
   * Contract: `undefined` when the entry is not pending (already claimed, sent or failed), so two senders never both win.
   */
  claimOutboxEntry(id: number): Promise<OutboxEntry | undefined>;
  /**
   * Claims up to `limit` due pending entries (`nextAttemptAt <= now`), oldest first — and, with
   * `reclaimInFlightAfterMs`, entries left `in-flight` whose claim (`updatedAt`) is at least that old: a sender whose
   * store write after a send was lost (a database blip) left them so, and nothing else would ever settle them.
   * Contract: as `claimOutboxEntry`; a reclaimed entry's `lastError` says "outcome unknown" (the send may have happened).
   */
  claimDueOutbox(limit: number, options?: ClaimDueOptions): Promise<OutboxEntry[]>;
  /** Records a successful send with every platform message id. Contract: only an `in-flight` entry; else `invalid-state`. */
  markOutboxSent(id: number, platformMessageIds: readonly string[]): Promise<OutboxEntry>;
  /**
   * Records a failed send: back to `pending` at `failure.retryAt`, or `failed` (kept for inspection) without it.
   * Contract: only an `in-flight` entry; else `invalid-state`.
   */
  markOutboxFailed(id: number, failure: OutboxFailure): Promise<OutboxEntry>;
  /** Contract: by id; all statuses unless filtered. */
  listOutbox(filter?: OutboxFilter): Promise<OutboxEntry[]>;
  /**
   * Crash recovery at start: entries left `in-flight` (the send may or may not have happened) go back to `pending`, due now.
   * Contract: returns them with their attempt counts so the caller can mark a possible resend.
   */
  requeueInFlightOutbox(): Promise<OutboxEntry[]>;
  /**
   * Deletes `sent` entries last updated before `before`, oldest first; at most `limit` of them when given.
   * Contract: returns how many; other statuses are never pruned.
   */
  pruneSentOutbox(before: number, limit?: number): Promise<number>;

  // Pairing: the `PairingStore` methods are inherited (insertPending is atomic; approved senders are kept until
  // removeApproved); `PairingService` holds the rules — code format, one-hour expiry, at most three pending.

  /**
   * Sessions holding a user message stored by `storeInboundMessage` that no commit has answered yet (`answersSeq`):
   * after a crash, the chats whose messages were still waiting for their turn. Contract: messages before the
   * session's transcript start (`/new`) do not count; most recently updated first, then by key.
   */
  listUnansweredSessions(): Promise<SessionRecord[]>;

  // ── Schedules ─────────────────────────────────────────────────────────────

  /** Writes a schedule, replacing the one with its id. Contract: `data` must be JSON (else `invalid-input`). */
  putSchedule(schedule: ScheduleRecord): Promise<void>;
  getSchedule(id: string): Promise<ScheduleRecord | undefined>;
  /** Schedules, oldest first (then by id); `status` narrows them. */
  listSchedules(filter?: ScheduleFilter): Promise<ScheduleRecord[]>;
  /** Contract: false when there was none. */
  deleteSchedule(id: string): Promise<boolean>;

  // ── Spend ledger (usage and budgets) ──────────────────────────────────────

  /** Adds each booking's tokens and cost to its row (created at zero). Contract: atomic over all bookings. */
  recordSpend(bookings: readonly SpendBooking[]): Promise<void>;
  /** Ledger rows by kind, subject, period. Contract: ordered by kind, subject, period. */
  listSpend(filter?: SpendFilter): Promise<SpendRow[]>;
  /**
   * Reserves `hold.tokens`/`hold.cost` in every limit's row, all or nothing, atomically across every gateway sharing
   * the store: a row takes it only while spent + reserved + it stays within the limit's caps. Lapsed holds
   * (`heldUntil` passed, by the store's clock) on a row that would refuse are released first.
   * Contract: refused → nothing held, with the refusing limit and its row; ids are the caller's, unique per hold.
   */
  holdSpend(hold: SpendHold): Promise<SpendHoldResult>;
  /**
   * Frees hold `id` (nothing when it is unknown or lapsed and released) and adds `bookings`, in one transaction.
   * Contract: settling twice books twice; the caller settles each hold once.
   */
  settleSpend(id: string, bookings: readonly SpendBooking[]): Promise<void>;
  // ── Turns ─────────────────────────────────────────────────────────────────

  /**
   * Writes one turn atomically: its transcript messages, its run change and its outbox entries.
   * Contract: all or nothing — an outbox entry never exists without the transcript it answers, nor the reverse.
   */
  commitTurn(turn: TurnCommit): Promise<TurnCommitResult>;
}

/** A `SessionStoreOps` bound to one open transaction; it is closed (every call rejects) once the transaction ends. */
export type SessionStoreTransaction = SessionStoreOps;

/** The gateway's durable state. Implementations: `MemorySessionStore`, `SqliteSessionStore`. */
export interface SessionStore extends SessionStoreOps {
  /**
   * Which sessions this instance owns, for a store shared by several gateway instances (a cluster). Absent: the
   * gateway owns every session (one gateway per store), as with the memory and SQLite stores.
   */
  readonly ownership?: SessionOwnership | undefined;
  /**
   * Runs `fn` in one transaction: every write made through `tx` commits together when `fn` resolves,
   * or none does when it throws (the error is rethrown). Calls on the store itself wait until the transaction ends.
   * Contract: keep `fn` short — it holds the store's write lock. Inside `fn` use only `tx`: calling the store itself
   * there rejects with `invalid-state` (it would otherwise wait for its own transaction). With group commit (SQLite)
   * the transaction commits with the other calls of its batch and the returned promise settles after that COMMIT;
   * `fn` must not wait for a store call started outside it, which settles only at that COMMIT.
   */
  transaction<T>(fn: (tx: SessionStoreTransaction) => Promise<T> | T): Promise<T>;
  /** Releases the store. Contract: idempotent; later calls reject with `closed`; waits for an open transaction to end. */
  close(): Promise<void>;
}
