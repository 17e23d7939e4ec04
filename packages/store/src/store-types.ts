import type { AgentMessage, Usage } from "@chorus/core";
import type { MemoryMark } from "./memory-mark.js";
import type { QueueMode } from "./queue-mode.js";

/** A JSON value as stored (settings are written and read back as JSON). */
export type StoredJson =
  | null
  | boolean
  | number
  | string
  | readonly StoredJson[]
  | { readonly [key: string]: StoredJson };

/** One conversation: a chat (DM, group, thread) or a sub-agent, bound to one agent. */
export interface SessionRecord {
  readonly key: string;
  readonly agentId: string;
  /** Where the session's chat lives; a sub-agent session carries its root session's values. */
  readonly channel: string;
  readonly accountId: string;
  readonly chatId: string;
  readonly title?: string;
  /** Set by `/model`; survives restarts. */
  readonly modelOverride?: string;
  /** Set by `/queue`; survives restarts. */
  readonly queueModeOverride?: QueueMode;
  /** Arbitrary per-session settings (e.g. activation mode); replaced as a whole by `updateSession`. */
  readonly settings: Readonly<Record<string, StoredJson>>;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** Epoch milliseconds of the last change or appended message. */
  readonly updatedAt: number;
  /** The seq of the last appended message; 0 when none. */
  readonly lastSeq: number;
  /** `readTranscript` starts here by default; `/new` and `/reset` move it past `lastSeq`. */
  readonly transcriptStartSeq: number;
  /** The last seq long-term memory's end-of-session extraction has read; absent when none. */
  readonly memoryExtractedSeq?: number;
}

/** What `ensureSession` needs to create a session. */
export interface NewSession {
  key: string;
  agentId: string;
  channel: string;
  accountId: string;
  chatId: string;
  title?: string;
  modelOverride?: string;
  queueModeOverride?: QueueMode;
  settings?: Readonly<Record<string, StoredJson>>;
}

/** Changes to a session. `null` clears an optional field; an absent field is left as it is. */
export interface SessionPatch {
  title?: string | null;
  modelOverride?: string | null;
  queueModeOverride?: QueueMode | null;
  settings?: Readonly<Record<string, StoredJson>>;
  /** Records how far memory extraction has read; only ever raises the stored value (a lower one changes nothing). */
  memoryExtractedSeq?: number;
}

/** Which sessions `listSessions` returns (most recently updated first). */
export interface SessionFilter {
  agentId?: string;
  limit?: number;
}

/** One stored transcript message with its position in the session. */
export interface TranscriptEntry {
  /** 1-based, strictly increasing per session, never reused. */
  readonly seq: number;
  readonly message: AgentMessage;
  /** Who said it, for long-term memory's extraction (see `MemoryMark`); absent for anything not said in the chat. */
  readonly memory?: MemoryMark;
}

/** Where `appendMessages` put the messages: seqs `firstSeq..lastSeq` (empty when `firstSeq > lastSeq`). */
export interface AppendResult {
  readonly firstSeq: number;
  readonly lastSeq: number;
}

/** A run's lifecycle: `running` until it ends one of four ways. `interrupted` means the process died under it. */
export type RunStatus = "running" | "completed" | "failed" | "aborted" | "interrupted";

/** The statuses a run can end in. */
export type EndedRunStatus = Exclude<RunStatus, "running">;

/** One agent run (root or sub-agent): the fleet registry behind `/agents`. */
export interface RunRecord {
  readonly id: string;
  readonly sessionKey: string;
  readonly parentRunId?: string;
  /** 0 for a root run, parent's depth + 1 for a sub-agent; fixed at start. */
  readonly depth: number;
  readonly agentId: string;
  readonly status: RunStatus;
  readonly startedAt: number;
  readonly endedAt?: number;
  /** Tokens and cost so far (cost in US dollars is inside). */
  readonly usage: Usage;
  readonly error?: string;
  /**
   * The W3C `traceparent` of the run's `invoke_agent` span, when it was traced: a run resumed after a restart links
   * its own span to it.
   */
  readonly traceparent?: string;
  /** A sub-agent's run: how it was spawned (undefined for a root run, and for runs stored before this was kept). */
  readonly spawn?: RunSpawn;
}

/**
 * How a sub-agent run was spawned, kept with it so that a run again after its instance died (a cluster takeover) runs
 * as the first did.
 */
export interface RunSpawn {
  /** The spawn's label, when it gave one. */
  readonly label?: string;
  /** The time limit it ran under, in seconds. */
  readonly timeoutSeconds?: number;
  /** The trust tier of the run that spawned it (the child's tools and limits follow it). */
  readonly trustTier?: "guest" | "trusted" | "owner";
  /** True for a background spawn: its parent does not wait for it, so the parent's own interruption does not cover it. */
  readonly background?: boolean;
}

/** What `startRun` needs. Depth is derived from the parent, never given. */
export interface NewRun {
  id: string;
  sessionKey: string;
  agentId: string;
  parentRunId?: string;
  /** The W3C `traceparent` of the run's span (see `RunRecord.traceparent`). */
  traceparent?: string;
  /** A sub-agent's spawn settings, returned with the run by `getRun` and `listRuns`. */
  spawn?: RunSpawn;
  /**
   * The ownership fence of the instance starting it (clusters only): refused with `fenced`, nothing written, when the
   * lease of `sessionKey` has moved on to another epoch. Stores without ownership ignore it.
   */
  fence?: StoreFence;
}

/** A top-level run written by the first `commitTurn` of its turn (see `TurnCommit.run`). */
export interface RunStart {
  agentId: string;
  /** The W3C `traceparent` of the run's span (see `RunRecord.traceparent`). */
  traceparent?: string;
}

/** Changes to a run. Setting `status` ends the run (stamps `endedAt`); only a running run can be changed. */
export interface RunPatch {
  status?: EndedRunStatus;
  usage?: Usage;
  error?: string;
}

/** Which runs `listRuns` returns (oldest first). */
export interface RunFilter {
  status?: RunStatus | readonly RunStatus[];
  sessionKey?: string;
  agentId?: string;
  parentRunId?: string;
  limit?: number;
}

/** A platform event id, scoped by channel and bot account so ids of different platforms never collide. */
export interface InboundEventRef {
  channel: string;
  accountId: string;
  eventId: string;
}

/** What `storeInboundMessage` writes: a platform message that starts (or joins) an agent turn. */
export interface NewInboundMessage {
  /** The platform event id, recorded for dedupe with the message. */
  event: InboundEventRef;
  /** The session the message belongs to, created when missing. */
  session: NewSession;
  /** The user's message, appended to the session's transcript. */
  message: AgentMessage;
  /**
   * The sender's trust tier, kept as the message's `memory` mark — `off` instead when the session's settings hold
   * `memory: "off"` at the append (decided in the same transaction). Absent: no mark (extraction never reads it).
   */
  memoryTier?: "owner" | "trusted" | "guest";
}

/** What `storeInboundMessage` stored: the session (as ensured, before the append), whether it was new, the message's seq. */
export interface InboundMessageStored {
  readonly session: SessionRecord;
  readonly created: boolean;
  readonly seq: number;
  /**
   * Set (by a store with `ownership`) when earlier inbound messages of the session were stored and not answered yet:
   * those after `answeredSeq` up to `lastInboundSeq` (the one before this). A cluster owner takes them up first.
   */
  readonly earlierUnanswered?: { readonly answeredSeq: number; readonly lastInboundSeq: number };
}

/** What an outbox entry carries: a reply to a chat, a sub-agent's result for its parent, or a notice. */
export type OutboxKind = "reply" | "subagent-result" | "notice";

/**
 * An outbox entry's lifecycle: `pending` → `in-flight` (claimed, a send is under way) → `sent`;
 * a failed send goes back to `pending` with a later `nextAttemptAt`, or to `failed` when given up.
 */
export type OutboxStatus = "pending" | "in-flight" | "sent" | "failed";

/** One delivery that must leave the gateway exactly once. */
export interface OutboxEntry {
  /** Never reused; `outbox:<id>` makes a stable idempotency key. */
  readonly id: number;
  /** The session the delivery is for (the parent session, for a sub-agent result). */
  readonly sessionKey: string;
  readonly runId?: string;
  readonly kind: OutboxKind;
  /** The caller's JSON-serialisable payload, read back as parsed JSON. */
  readonly payload: unknown;
  readonly status: OutboxStatus;
  /** How many times the entry was claimed for a send. */
  readonly attempts: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** A pending entry is due when `nextAttemptAt <= now`. */
  readonly nextAttemptAt: number;
  readonly lastError?: string;
  /** Ids of the platform messages the send produced (every chunk); empty until sent. */
  readonly platformMessageIds: readonly string[];
  /** The W3C `traceparent` of the span that produced it: a send retried later continues that trace. */
  readonly traceparent?: string;
}

/** What `enqueueOutbox` needs. */
export interface NewOutboxEntry {
  sessionKey: string;
  runId?: string;
  kind: OutboxKind;
  payload: unknown;
  /** Defaults to now. */
  nextAttemptAt?: number;
  /** The W3C `traceparent` of the span that produced it (see `OutboxEntry.traceparent`). */
  traceparent?: string;
}

/** A failed send: retried at `retryAt`, or given up (status `failed`) when it is absent. */
export interface OutboxFailure {
  error: string;
  retryAt?: number;
}

/** How `claimDueOutbox` treats entries left in flight. */
export interface ClaimDueOptions {
  /**
   * Also claim `in-flight` entries whose claim is at least this old (ms): their sender's write after the send was lost,
   * or the sender is stuck. Undefined: pending entries only.
   */
  readonly reclaimInFlightAfterMs?: number;
}

/** Which outbox entries `listOutbox` returns (by id). */
export interface OutboxFilter {
  status?: OutboxStatus | readonly OutboxStatus[];
  sessionKey?: string;
  limit?: number;
}

/** Everything one turn writes, committed atomically by `commitTurn`. */
export interface TurnCommit {
  sessionKey: string;
  /** The turn's new transcript messages, in order. */
  messages: readonly AgentMessage[];
  /**
   * The turn's run: `patch` changes it (e.g. ends it with its usage); `start` writes it with this commit when the store
   * has no run with that id yet (a turn's first write; depth 0, no parent, as `startRun` would), so a turn needs no
   * `startRun` round trip of its own. A run that exists must be running (else `invalid-state`), with or without `start`.
   */
  run?: { id: string; patch?: RunPatch; start?: RunStart };
  /** The deliveries the turn produced (replies, sub-agent results). */
  outbox?: readonly NewOutboxEntry[];
  /**
   * Write the outbox entries already claimed (`in-flight`, attempts 1), for a caller that sends them right after the
   * commit: the claim is durable with the transcript, and no separate claim (one more write and COMMIT) is needed.
   * Contract: the caller then owns each returned entry — it sends it and marks it sent or failed; nobody else will
   * claim it (after a crash, `requeueInFlightOutbox` hands it back as a possible resend).
   */
  claimOutbox?: boolean;
  /**
   * The highest seq of the user messages this turn's run took in (its prompts and steered messages): they count as
   * answered once this commit is durable, so `listUnansweredSessions` no longer reports them.
   */
  answersSeq?: number;
  /**
   * The messages start the transcript afresh (a compaction's summary and the messages it kept): default reads see
   * only them and what follows, as `resetTranscript` then the append would — in this one atomic, fenced write.
   */
  startsTranscript?: boolean;
  /**
   * The ownership fence of the instance writing (clusters only): the store refuses the whole commit with `fenced`,
   * inside the same transaction, when the session's lease epoch has moved on. Stores without ownership ignore it.
   */
  fence?: StoreFence;
  /**
   * Another component's writes that must commit with this turn (long-term memory's facts): the store runs the
   * variant it can inside the turn's own transaction, after the turn's writes. A hook answers `false` when it cannot
   * write on that database (it then writes after the commit itself); throwing undoes the whole commit.
   */
  sideWrites?: TurnSideWrites;
}

/** Writes joined to a turn's transaction (`TurnCommit.sideWrites`). Each answers whether it wrote. */
export interface TurnSideWrites {
  /** Synchronous engines (SQLite): runs inside the transaction with the store's own connection (a `DatabaseSync`). */
  sync?(connection: unknown): boolean;
  /** PostgreSQL: runs inside the transaction on its client (`query(text, values)`), before COMMIT. */
  onClient?(client: unknown): Promise<boolean>;
}

/** Proof of a session's ownership a write carries: the epoch of the lease it was taken under. */
export interface StoreFence {
  readonly epoch: number;
}

/** What `commitTurn` wrote. */
export interface TurnCommitResult extends AppendResult {
  readonly run?: RunRecord;
  readonly outbox: readonly OutboxEntry[];
  /** True when `sideWrites` ran inside the commit's transaction and wrote (they are durable with the turn). */
  readonly sideWritten?: boolean;
}

/** How a schedule stands: `active` runs when due; `stopped` (by an admin) and `done` (a one-off that ran) never run. */
export type ScheduleStatus = "active" | "stopped" | "done";

/**
 * A stored schedule (`/schedule`): the gateway's scheduler owns `data` (what to run, where, when, the last result);
 * the store keeps it durable. Times are epoch milliseconds, written by the caller.
 */
export interface ScheduleRecord {
  readonly id: string;
  readonly status: ScheduleStatus;
  /** When it is due next; absent when it will not run again. */
  readonly nextRunAt?: number;
  readonly data: { readonly [key: string]: StoredJson };
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Which schedules `listSchedules` returns (oldest first, then by id). */
export interface ScheduleFilter {
  status?: ScheduleStatus | readonly ScheduleStatus[];
}

/**
 * What a spend ledger row counts: an agent's, a user's, a goal's or a schedule's model use, or an agent's use for one
 * kind of call (`purpose`: a booking-only breakdown for `/usage`, never a budget).
 */
export type SpendKind = "agent" | "user" | "goal" | "schedule" | "purpose";

/** A spend ledger row's key. `period` is a UTC day ("2026-11-26") or `"total"` (a goal's or schedule's whole life). */
export interface SpendKey {
  readonly kind: SpendKind;
  /** The agent id, user id, goal id or schedule id; for `purpose`, `<agent id>:<kind of call>` (e.g. `main:taco`). */
  readonly subject: string;
  readonly period: string;
}

/** Spend added to one ledger row by `recordSpend` or `settleSpend`. */
export interface SpendBooking extends SpendKey {
  readonly tokens: number;
  /** US dollars. */
  readonly cost: number;
}

/** A spend ledger row: what was spent (settled) and what is reserved by calls under way. */
export interface SpendRow extends SpendBooking {
  readonly reservedTokens: number;
  readonly reservedCost: number;
  readonly updatedAt: number;
}

/** Which rows `listSpend` returns (by kind, subject, period); `fromPeriod`/`toPeriod` are inclusive text bounds. */
export interface SpendFilter {
  kind?: SpendKind;
  subject?: string;
  fromPeriod?: string;
  toPeriod?: string;
}

/** One budget a hold must fit in: a ledger row and its caps (a cap left out is no cap). */
export interface SpendLimit extends SpendKey {
  readonly maxTokens?: number;
  readonly maxCost?: number;
}

/**
 * A reservation of one model call's worst case (`holdSpend`), in every limit's row at once. `heldUntil` (epoch ms)
 * is when it lapses if never settled (its process died): a lapsed hold is released when it would refuse a new one.
 */
export interface SpendHold {
  readonly id: string;
  readonly limits: readonly SpendLimit[];
  readonly tokens: number;
  readonly cost: number;
  readonly heldUntil: number;
}

/** What `holdSpend` did: held in every row, or refused by one (nothing held), with that row as it stood. */
export type SpendHoldResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly limit: SpendLimit; readonly row: SpendRow };
