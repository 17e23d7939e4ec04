import { randomBytes } from "node:crypto";
import type {
  ClusterFleet,
  ClusterInstance,
  ClusterSignal,
  HandedOffMessage,
  OwnershipEvent,
  ReportedRun,
  SessionOwnership,
  StoreFence,
  UnansweredSession,
} from "@chorus/store";
import { describeError } from "@chorus/store";
import type { ClientConfig } from "pg";
import type { Db } from "../query-runner.js";
import type { StoreContext } from "../sql/store-context.js";
import { agreeOnValue } from "./cluster-value-statements.js";
import {
  claimShards,
  clusterInstances,
  type HeldShard,
  heartbeat,
  releaseShards,
  unansweredSessions,
} from "./lease-statements.js";
import { PostgresIngressLeases } from "./postgres-ingress-leases.js";
import { PostgresInstanceBroadcast } from "./postgres-instance-broadcast.js";
import { SHARD_COUNT, sessionShard } from "./session-shard.js";
import { WakeListener } from "./wake-listener.js";

/** How an instance takes part in a cluster on one database. */
export interface ClusterOptions {
  /** This instance's name (shown to operators; default host and pid in the bot). */
  instanceId: string;
  /** How long a lease lasts without renewal. Heartbeats come every third of it. Default 3000 ms. */
  leaseMs?: number;
  /** How often owned sessions are swept for stored, unanswered messages (lost wake-ups). Default 5000 ms. */
  sweepMs?: number;
  /**
   * How long a reply that was being sent when its instance lost the session waits before the new owner sends it again
   * (its outcome unknown). Meanwhile the instance that sent it may still record it sent — one cut off from the
   * database, not dead — and then it is not sent twice. Default 0: sent again at once (marked as a resend); 10 000
   * makes a cut of up to ~13 s exactly-once, at the cost of a crashed instance's chat waiting that long.
   */
  unknownOutcomeGraceMs?: number;
}

/**
 * How long the new owner waits by default before resending a reply whose send was under way at the old owner: none.
 * Waiting trades a dead instance's chats' latency for no duplicate after a database blip; the operator chooses it.
 */
export const DEFAULT_UNKNOWN_OUTCOME_GRACE_MS = 0;

/**
 * How long a lease lasts unrenewed by default: a killed instance's sessions move within it (plus a claim's round
 * trip), and an instance that cannot renew stops starting turns after two thirds of it (two missed beats).
 */
export const DEFAULT_LEASE_MS = 3000;

/** How long after another instance's lease runs out the claiming beat comes (the database's and this clock differ). */
const CLAIM_MARGIN_MS = 25;

interface Held {
  readonly epoch: number;
  /** Local monotonic time until which this instance may start turns (before the lease can expire). */
  readonly validUntil: number;
}

/**
 * Session ownership by shard lease on PostgreSQL: sessions fall into 64 shards; each instance holds a fair share
 * (64 ÷ live instances), renewing all of them with one statement every `leaseMs / 3`, and claims free or expired
 * shards (`FOR UPDATE SKIP LOCKED`), settling what their previous owner left in the same transaction. A turn starts
 * only while the lease surely holds: `fenceFor` says no once `leaseMs - leaseMs / 3` passed since the last renewal
 * was sent (self-fencing), and the commit carries the epoch the database checks. A message stored for a session
 * owned elsewhere wakes its owner with `NOTIFY`; a sweep every `sweepMs` covers lost notifications.
 * Contract: see `SessionOwnership`; the lease owner id is `instanceId` plus a random suffix, unique per process, so a
 * restarted process with the same name (a container's pid 1) never inherits its predecessor's leases unfenced.
 */
export class PostgresShardOwnership implements SessionOwnership {
  readonly instanceId: string;
  /** The id leases are held under: `instanceId` and a per-process suffix. */
  readonly leaseOwner: string;
  /** Leases of inbound consumers that run once per account (Telegram long polling, Discord shards). */
  readonly ingress: PostgresIngressLeases;
  /** Messages to the other instances; from the store's open to its close (`broadcast.close()`). */
  readonly broadcast: PostgresInstanceBroadcast;
  readonly #db: Db;
  readonly #ctx: StoreContext;
  readonly #leaseMs: number;
  readonly #sweepMs: number;
  readonly #onWarning: (message: string) => void;
  readonly #clientConfig: ClientConfig;
  #wakes: WakeListener | undefined;
  readonly #channel: string;
  readonly #clock = (): number => performance.now();
  #held = new Map<number, Held>();
  #listener: ((event: OwnershipEvent) => void) | undefined;
  /** Shards claimed whose unanswered sessions are being read: not held yet. */
  readonly #claiming = new Set<number>();
  /** Wake-ups for sessions of shards being claimed, taken once the claim is through. */
  readonly #wokenWhileClaiming: string[] = [];
  /** Sessions with a turn under way here (their runs may not be stored yet): a rebalance gives other shards up. */
  #busy: (() => Iterable<string>) | undefined;
  #beatTimer: ReturnType<typeof setInterval> | undefined;
  /** A beat of its own, right after another instance's lease runs out (sooner than the next regular one). */
  #claimTimer: ReturnType<typeof setTimeout> | undefined;
  #sweepTimer: ReturnType<typeof setInterval> | undefined;
  #beating: Promise<void> | undefined;
  /**
   * Set when a renewal failed (this instance could not reach the database). The others' heartbeats aged in the same
   * outage, so for one lease after its first renewal that goes through again it claims no expired shard: each instance
   * renews its own with the same epoch first (nothing of theirs is taken over and resent) — a dead one's shards are
   * claimed a lease later.
   */
  readonly #unknownOutcomeGraceMs: number;
  #renewalFailed = false;
  #claimsHeldUntil = 0;
  #stopped = true;
  #reportRuns: () => readonly ReportedRun[] = () => [];
  /** Work run after each heartbeat (the gateway's batched spend writes). */
  #afterBeat: () => Promise<void> = () => Promise.resolve();

  /** The fleet across instances: their runs and shards, and signals between them on the wake-up channel. */
  readonly fleet: ClusterFleet;

  constructor(parts: {
    db: Db;
    ctx: StoreContext;
    clientConfig: ClientConfig;
    schema: string;
    options: ClusterOptions;
    onWarning: (message: string) => void;
  }) {
    this.instanceId = parts.options.instanceId;
    this.leaseOwner = parts.ctx.leaseOwner ?? leaseOwnerFor(parts.options.instanceId);
    this.#db = parts.db;
    this.#ctx = parts.ctx;
    this.#leaseMs = parts.options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#sweepMs = parts.options.sweepMs ?? 5000;
    this.#unknownOutcomeGraceMs = parts.options.unknownOutcomeGraceMs ?? DEFAULT_UNKNOWN_OUTCOME_GRACE_MS;
    this.#onWarning = parts.onWarning;
    this.#channel = `chorus_wake_${parts.schema}`.toLowerCase().slice(0, 63);
    this.#clientConfig = parts.clientConfig;
    this.ingress = new PostgresIngressLeases({
      db: parts.db,
      owner: this.leaseOwner,
      leaseMs: this.#leaseMs,
      clock: this.#clock,
      onWarning: parts.onWarning,
    });
    this.broadcast = new PostgresInstanceBroadcast({
      db: parts.db,
      clientConfig: parts.clientConfig,
      schema: parts.schema,
      sender: this.leaseOwner,
      onWarning: parts.onWarning,
    });
    this.fleet = {
      self: this.leaseOwner,
      instances: (): Promise<ClusterInstance[]> => clusterInstances(this.#db, this.leaseOwner),
      reportRuns: (runs) => {
        this.#reportRuns = runs;
      },
      broadcast: (signal) => this.#broadcast(signal),
    };
  }

  async #broadcast(signal: ClusterSignal): Promise<boolean> {
    try {
      await this.#db.query("SELECT pg_notify($1, $2)", [this.#channel, JSON.stringify({ signal })]);
      return true;
    } catch (error) {
      this.#onWarning(`Could not signal the other instances: ${describeError(error)}`);
      return false;
    }
  }

  /** The shards held now (renewed in time), by shard number. */
  get shards(): HeldShard[] {
    const now = this.#clock();
    return [...this.#held]
      .filter(([, held]) => now <= held.validUntil)
      .map(([shard, held]) => ({ shard, epoch: held.epoch }))
      .sort((a, b) => a.shard - b.shard);
  }

  /** Contract: as `SessionOwnership.start`; after `stop` it may start again (a gateway reloading its config). */
  async start(listener: (event: OwnershipEvent) => void, busy?: () => Iterable<string>): Promise<void> {
    if (!this.#stopped) throw new Error("This ownership has already started.");
    this.#stopped = false;
    this.#listener = listener;
    this.#busy = busy;
    this.#wakes = new WakeListener({
      config: this.#clientConfig,
      channel: this.#channel,
      onPayload: (payload) => this.#woken(payload),
      onReconnect: () => this.#sweep(),
      onWarning: this.#onWarning,
    });
    // Listening before the first claim: no wake-up for a session it takes is missed.
    try {
      await this.#wakes.start();
    } catch (error) {
      this.#stopped = true; // (it may be started again once the database answers)
      throw error;
    }
    await this.#beat();
    this.#beatTimer = setInterval(
      () => {
        void this.#beat();
        void this.#afterBeat().catch(() => {});
      },
      Math.max(1, Math.floor(this.#leaseMs / 3)),
    );
    this.#beatTimer.unref?.();
    this.#sweepTimer = setInterval(() => this.#sweep(), this.#sweepMs);
    this.#sweepTimer.unref?.();
  }

  /** Contract: as `SessionOwnership.everyBeat`: `task` runs with each regular heartbeat (beside it, not in its statement). */
  everyBeat(task: () => Promise<void>): void {
    this.#afterBeat = task;
  }

  fenceFor(sessionKey: string): StoreFence | undefined {
    const held = this.#held.get(sessionShard(sessionKey));
    if (held === undefined || this.#clock() > held.validUntil) return undefined;
    return { epoch: held.epoch };
  }

  /** Contract: as `SessionOwnership.agreeOn`; the value lives in `cluster_values`. */
  agreeOn(name: string, proposal: string): Promise<string> {
    return agreeOnValue(this.#db, name, proposal);
  }

  async handOff(message: HandedOffMessage): Promise<void> {
    try {
      await this.#db.query("SELECT pg_notify($1, $2)", [this.#channel, JSON.stringify(message)]);
    } catch (error) {
      // The message is stored: the owner's sweep answers it, only later.
      this.#onWarning(`Could not wake the owner of ${message.sessionKey}: ${describeError(error)}`);
    }
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#beatTimer !== undefined) clearInterval(this.#beatTimer);
    if (this.#claimTimer !== undefined) clearTimeout(this.#claimTimer);
    if (this.#sweepTimer !== undefined) clearInterval(this.#sweepTimer);
    await this.#beating;
    this.#held = new Map();
    await this.ingress.stopAll();
    await this.#wakes?.stop();
    this.#wakes = undefined;
    try {
      await releaseShards(this.#db, this.leaseOwner);
    } catch (error) {
      this.#onWarning(
        `Could not release this instance's leases (they expire in ${this.#leaseMs} ms): ${describeError(error)}`,
      );
    }
  }

  #beat(): Promise<void> {
    if (this.#beating !== undefined || this.#stopped) return this.#beating ?? Promise.resolve();
    this.#beating = this.#beatOnce().finally(() => {
      this.#beating = undefined;
    });
    return this.#beating;
  }

  async #beatOnce(): Promise<void> {
    const sentAt = this.#clock();
    let beat: Awaited<ReturnType<typeof heartbeat>>;
    try {
      beat = await heartbeat(this.#db, this.leaseOwner, this.#leaseMs, this.#liveRuns());
    } catch (error) {
      this.#onWarning(`Could not renew this instance's leases: ${describeError(error)}`);
      this.#renewalFailed = true;
      if ([...this.#held.values()].some((held) => this.#clock() > held.validUntil)) this.#emit({ type: "lost" });
      return;
    }
    if (this.#stopped) return;
    if (this.#renewalFailed) {
      this.#renewalFailed = false;
      this.#claimsHeldUntil = this.#clock() + this.#leaseMs;
    }
    const validUntil = this.#validFrom(sentAt);
    const next = new Map<number, Held>(beat.renewed.map(({ shard, epoch }) => [shard, { epoch, validUntil }]));
    const lost = [...this.#held].some(([shard, held]) => next.get(shard)?.epoch !== held.epoch);
    this.#held = next;
    if (lost) this.#emit({ type: "lost" });
    await this.ingress.beat({ renewed: beat.ingress, live: beat.live, validUntil });
    const target = Math.ceil(SHARD_COUNT / Math.max(1, beat.live));
    const claiming = this.#clock() >= this.#claimsHeldUntil;
    if (next.size < target && beat.claimable > 0 && claiming) await this.#claim(target - next.size);
    else if (next.size > target) await this.#rebalance(next.size - target);
    this.#beatWhenNextLeaseEnds(beat.nextExpiryMs);
  }

  /**
   * A live instance renews every third of a lease, so another's lease running out before this instance's next beat
   * means that instance stopped beating: beat right after it ends, and claim its shards then instead of up to a beat
   * later (a killed instance's sessions move within about one lease).
   */
  #beatWhenNextLeaseEnds(nextExpiryMs: number | undefined): void {
    if (nextExpiryMs === undefined || this.#claimTimer !== undefined || this.#stopped) return;
    if (nextExpiryMs >= Math.floor(this.#leaseMs / 3)) return;
    this.#claimTimer = setTimeout(() => {
      this.#claimTimer = undefined;
      // After a beat under way, if any: that one read the lease as not yet run out.
      void (this.#beating ?? Promise.resolve()).then(() => this.#beat());
    }, nextExpiryMs + CLAIM_MARGIN_MS);
    this.#claimTimer.unref?.();
  }

  #liveRuns(): readonly ReportedRun[] {
    try {
      return this.#reportRuns();
    } catch {
      return [];
    }
  }

  /** A lease renewed by a statement sent at `sentAt` is used until a third of it before it could expire. */
  #validFrom(sentAt: number): number {
    return sentAt + this.#leaseMs - Math.floor(this.#leaseMs / 3);
  }

  async #claim(max: number): Promise<void> {
    const sentAt = this.#clock();
    try {
      const claim = await claimShards(
        this.#db,
        this.#ctx,
        this.leaseOwner,
        this.#leaseMs,
        max,
        this.#unknownOutcomeGraceMs,
      );
      if (claim.claimed.length === 0) return;
      const validUntil = this.#validFrom(sentAt);
      const shards = claim.claimed.map((held) => held.shard);
      // The shards count as held only from the `gained` event on (same tick): a message this instance's intake takes
      // before it is handed off (its wake-up waits, below), never put into a lane ahead of the stored ones.
      for (const shard of shards) this.#claiming.add(shard);
      let rows: Awaited<ReturnType<typeof unansweredSessions>> = [];
      try {
        rows = await unansweredSessions(this.#db, { shards });
      } catch (error) {
        this.#onWarning(
          `Could not read the unanswered sessions of claimed shards (the sweep answers them): ${describeError(error)}`,
        );
      } finally {
        for (const shard of shards) this.#claiming.delete(shard);
      }
      for (const { shard, epoch } of claim.claimed) this.#held.set(shard, { epoch, validUntil });
      this.#emit({
        type: "gained",
        shards,
        interruptedRuns: claim.interruptedRuns,
        requeuedOutbox: claim.requeuedOutbox,
        unanswered: rows,
      });
      for (const payload of this.#wokenWhileClaiming.splice(0)) this.#woken(payload);
    } catch (error) {
      this.#onWarning(`Could not claim session shards: ${describeError(error)}`);
    }
  }

  /**
   * Gives `count` shards back so that a newer instance gets its share: none where a turn is under way here (`busy`);
   * they stop counting as held first (no turn starts there any more), then are released unless a run of theirs is
   * still running (kept, for the next beat).
   */
  async #rebalance(count: number): Promise<void> {
    const busy = new Set([...(this.#busy?.() ?? [])].map(sessionShard));
    const picked = [...this.#held.keys()]
      .filter((shard) => !busy.has(shard))
      .sort((a, b) => b - a)
      .slice(0, count);
    const kept = new Map(picked.map((shard) => [shard, this.#held.get(shard) as Held]));
    for (const shard of picked) this.#held.delete(shard);
    let released: number[] = [];
    try {
      released = await releaseShards(this.#db, this.leaseOwner, picked);
    } catch (error) {
      this.#onWarning(`Could not release session shards: ${describeError(error)}`);
    }
    for (const [shard, held] of kept) if (!released.includes(shard)) this.#held.set(shard, held);
    if (released.length > 0) this.#emit({ type: "lost" });
  }

  #sweep(): void {
    if (this.#stopped) return;
    const shards = this.shards.map((held) => held.shard);
    if (shards.length === 0) return;
    void unansweredSessions(this.#db, { shards }).then(
      (rows) => {
        if (rows.length > 0) this.#emit({ type: "unanswered", sessions: rows });
      },
      (error: unknown) => this.#onWarning(`The sweep for unanswered messages failed: ${describeError(error)}`),
    );
  }

  #woken(payload: string): void {
    let message: HandedOffMessage & { signal?: ClusterSignal };
    try {
      message = JSON.parse(payload) as HandedOffMessage & { signal?: ClusterSignal };
    } catch {
      return;
    }
    if (message.signal !== undefined) {
      this.#emit({ type: "signal", signal: message.signal });
      return;
    }
    if (typeof message.sessionKey !== "string") return;
    if (this.#claiming.has(sessionShard(message.sessionKey))) {
      this.#wokenWhileClaiming.push(payload); // taken once the claim is through
      return;
    }
    if (this.fenceFor(message.sessionKey) === undefined) return;
    void unansweredSessions(this.#db, { sessionKey: message.sessionKey }).then(
      (rows) => {
        const hints = new Map([[message.seq, message]]);
        const sessions: UnansweredSession[] = rows.map((row) => ({ ...row, hints }));
        if (sessions.length > 0) this.#emit({ type: "unanswered", sessions });
      },
      (error: unknown) => this.#onWarning(`Could not read a woken session: ${describeError(error)}`),
    );
  }

  #emit(event: OwnershipEvent): void {
    if (!this.#stopped) this.#listener?.(event);
  }
}

/** The id an instance holds leases under: its name and a random suffix, unique per process. */
export function leaseOwnerFor(instanceId: string): string {
  return `${instanceId}#${randomBytes(4).toString("hex")}`;
}
