import type { IngressLeases } from "@chorus/channel";
import type { InstanceBroadcast } from "./instance-broadcast.js";
import type { OutboxEntry, RunRecord, SessionRecord, StoreFence, TranscriptEntry } from "./store-types.js";
import type { TrustTier } from "./trust-tier.js";

/** A user message stored by an instance that does not own its session, for the owner to answer. */
export interface HandedOffMessage {
  readonly sessionKey: string;
  /** Its seq in the session's transcript. */
  readonly seq: number;
  /** The trust tier the taking instance's policy gave it. */
  readonly trust: TrustTier;
  readonly senderId?: string;
  /** The platform message it answers, for reply threading. */
  readonly replyToMessageId?: string;
}

/** A session holding stored user messages that no commit has answered yet, with where they are. */
export interface UnansweredSession {
  readonly session: SessionRecord;
  /** Messages after this seq are not answered. */
  readonly answeredSeq: number;
  /** The seq of the last stored inbound message. */
  readonly lastInboundSeq: number;
  /** What the instance that took a message said about it, by seq (missing after a lost notification). */
  readonly hints?: ReadonlyMap<number, HandedOffMessage>;
  /** The transcript after `answeredSeq` up to `lastInboundSeq`, when the report carries it (else it is read). */
  readonly messages?: readonly TranscriptEntry[];
}

/** What ownership tells the gateway. */
export type OwnershipEvent =
  /**
   * This instance now owns more sessions. Runs left running there by the previous owner were marked interrupted,
   * its in-flight outbox entries requeued (their sends' outcomes are unknown: possible resends), in the same
   * transaction as the claim.
   */
  | {
      readonly type: "gained";
      /** The shards (hash ranges of session keys) taken, for the log. */
      readonly shards: readonly number[];
      readonly interruptedRuns: readonly RunRecord[];
      readonly requeuedOutbox: readonly OutboxEntry[];
      readonly unanswered: readonly UnansweredSession[];
    }
  /** Sessions this instance no longer owns (taken, released, or not renewed in time): start no turn for them. */
  | { readonly type: "lost" }
  /** Owned sessions with stored, unanswered messages: from a wake-up (another instance took a message) or the sweep. */
  | { readonly type: "unanswered"; readonly sessions: readonly UnansweredSession[] }
  /** A signal another instance (or this one) broadcast. */
  | { readonly type: "signal"; readonly signal: ClusterSignal };

/**
 * Which sessions this gateway instance may run turns for, when several instances share one store (a cluster).
 * Optional: a store without it (memory, SQLite) leaves the gateway owning every session, with no fence.
 * Contract: `fenceFor` is synchronous and says "not owned" before the lease can expire (self-fencing); a write carrying
 * a fence is refused by the store with `fenced` once another instance has taken the session over.
 */
export interface SessionOwnership {
  /** This instance's id (host and pid unless configured). */
  readonly instanceId: string;
  /**
   * Takes this instance's share of the sessions and starts renewing it; events come to `listener` from now on (the
   * first `gained` before this resolves). `busy` lists the sessions with a turn under way here (a turn's run is stored
   * only from its first commit): giving sessions up for another instance spares them. Contract: call once.
   */
  start(listener: (event: OwnershipEvent) => void, busy?: () => Iterable<string>): Promise<void>;
  /** The fence a turn of this session starting now carries, or undefined when this instance must not start one. */
  fenceFor(sessionKey: string): StoreFence | undefined;
  /** Wakes the session's owner for a message this instance stored but does not own. Contract: never rejects. */
  handOff(message: HandedOffMessage): Promise<void>;
  /**
   * Leases for inbound consumers that may run on one instance only (Telegram long polling, Discord shards), renewed
   * with the session leases. Optional: without it every instance runs them (fine for webhooks, not for polling).
   */
  readonly ingress?: IngressLeases;
  /**
   * Messages to the other instances (optional): works from the store's open to its close, whether or not this
   * ownership has started, so channels built before the gateway may subscribe.
   */
  readonly broadcast?: InstanceBroadcast;
  /**
   * The value every instance of the cluster uses for `name` (optional): the first proposal stored wins, and every
   * later call, on any instance, returns it (e.g. the WebChat server key). Works from the store's open to its close.
   * Contract: rejects when the store cannot be reached; never replaces a stored value.
   */
  agreeOn?(name: string, proposal: string): Promise<string>;
  /**
   * Runs `task` after each heartbeat (optional): work batched on the heartbeat's cadence, off the message path (the
   * gateway writes booked spend there). Contract: called before `start`; a later call replaces the task; a rejection is the task's to log.
   */
  everyBeat?(task: () => Promise<void>): void;
  /** Stops renewing and releases every lease at once, so another instance takes over without waiting. Idempotent. */
  stop(): Promise<void>;
  /** The fleet across instances, when the store can tell (PostgreSQL in cluster mode). */
  readonly fleet?: ClusterFleet;
}

/** A run live in an instance, as that instance last reported it (with its heartbeat). */
export interface ReportedRun {
  readonly runId: string;
  readonly tokens: number;
  /** US dollars so far. */
  readonly cost: number;
  /**
   * What the run is, so other instances list it before it is stored (a turn's run is written by its first commit).
   * Optional: a report without them still places and counts a stored run.
   */
  readonly sessionKey?: string;
  readonly agentId?: string;
  readonly parentRunId?: string;
  readonly depth?: number;
  /** Epoch ms on the reporting instance's clock. */
  readonly startedAt?: number;
}

/** An instance of the cluster as `/status` and `/agents` show it. */
export interface ClusterInstance {
  /** The id its leases are held under (its `instanceId` and a per-process suffix). */
  readonly id: string;
  /** Whether it is the instance asking. */
  readonly self: boolean;
  /** Shard leases it holds unexpired. */
  readonly shards: number;
  /** Time since its last heartbeat, on the database's clock. */
  readonly beatAgeMs: number;
  /** Its live runs at its last heartbeat. */
  readonly runs: readonly ReportedRun[];
}

/** A message between instances, broadcast to all of them (`NOTIFY`). */
export type ClusterSignal =
  /** `request`: what the gateway asks (its `ClusterRequest`); carried as it is, never read here. */
  | { readonly type: "request"; readonly requestId: string; readonly request: unknown }
  | { readonly type: "response"; readonly requestId: string; readonly from: string; readonly result: unknown }
  /** The instance answering a request is still at it (sent while a long answer, e.g. /compact's, is under way). */
  | { readonly type: "working"; readonly requestId: string; readonly from: string };

/**
 * What a cluster's instances tell each other beyond ownership: the fleet (`/agents`, `/status` across instances)
 * and signals (a kill or a session command reaching the instance where the run lives). Optional on
 * `SessionOwnership`: without it commands act in this process only.
 */
export interface ClusterFleet {
  /** The id this instance is listed under (`ClusterInstance.id`). */
  readonly self: string;
  /** The instances that beat within the last minute, this one included. */
  instances(): Promise<readonly ClusterInstance[]>;
  /** What this instance reports as live at each heartbeat. Contract: called once, before `start`. */
  reportRuns(runs: () => readonly ReportedRun[]): void;
  /** Broadcasts a signal to every instance (this one too); it comes back as a `signal` event. Never rejects. */
  broadcast(signal: ClusterSignal): Promise<boolean>;
}
