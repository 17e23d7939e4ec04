import type { Channel } from "@chorus/channel";
import type { OutboxEntry, OutboxFailure, SessionStore } from "@chorus/store";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import { describeError, type GatewayLogger, SILENT_LOGGER } from "../logging/gateway-logger.js";
import { DeliveryTrace } from "../telemetry/delivery-trace.js";
import { ChannelNotRunningError, PermanentDeliveryError, retryPlan, settledElsewhere } from "./delivery-errors.js";
import { reportDeliveryFailure } from "./delivery-failure-report.js";
import { asChatPayload, type ChatDeliveryPayload } from "./outbox-payloads.js";
import { sendChatChunks } from "./send-chat-chunks.js";

/** Options of the outbox dispatcher. */
export interface OutboxDispatcherOptions {
  store: SessionStore;
  channelFor(channel: string, accountId: string): Channel | undefined;
  events: GatewayEventBus;
  /**
   * Delivers a claimed `subagent-result` entry to its parent session. Contract: marks the entry sent (in the same
   * transaction that stores the result) or rejects, in which case the dispatcher retries later.
   */
  acceptSubagentResult(entry: OutboxEntry): Promise<void>;
  logger?: GatewayLogger;
  now?: () => number;
  /** How often due retries are looked for. Default 1000 ms. */
  pollMs?: number;
  /**
   * Attempts for a chat delivery that fails for a reason not known to pass (sub-agent results are never given up).
   * Default 8.
   */
  maxAttempts?: number;
  /**
   * How long a chat delivery that fails for a passing reason — the network, a rate limit, its channel not running — is
   * retried, counted from the entry's creation, before it is given up. A platform outage longer than a few retries
   * delays replies instead of losing them. Default 21 600 000 ms (6 h).
   */
  transientRetryWindowMs?: number;
  /** First retry delay; doubled per attempt, at most 60 s. Default 1000 ms. */
  baseRetryMs?: number;
  /**
   * How old the claim of an entry left `in-flight` may get before a poll claims it again (`claimDueOutbox`): a write
   * after its send was lost (the store unreachable), or a commit that applied while its answer was lost. Entries this
   * dispatcher still holds are never sent again for it. Default 60 000 ms.
   */
  reclaimInFlightAfterMs?: number;
}

/**
 * Sends what the outbox holds: claim (in-flight) → send every chunk → mark sent with the platform ids. Failed sends
 * are retried with backoff (a platform's retry-after is honoured); entries of one session leave in order, a later one
 * waiting while an earlier one waits for its retry.
 * Contract: an entry is sent at most once per claim; a `reply`/`notice` is given up (status `failed`, a
 * `delivery_failed` event) only on a permanent error, after `transientRetryWindowMs` of passing failures (network,
 * rate limits, channel not running), or after `maxAttempts` of any other failure; a `subagent-result` is retried
 * forever.
 */
export class OutboxDispatcher {
  readonly #options: OutboxDispatcherOptions;
  readonly #logger: GatewayLogger;
  readonly #now: () => number;
  readonly #chains = new Map<string, Promise<void>>();
  /** Chunks already sent for an entry whose later chunk failed: a retry in this process does not repeat them. */
  /** Per entry, each chunk done so far: the message it went out as, or undefined when it was dropped (editOnly). */
  readonly #progress = new Map<number, (string | undefined)[]>();
  readonly #resent = new Set<number>();
  /** Per session, the chat entry waiting for a retry: later entries of that session wait behind it, in order. */
  readonly #retrying = new Map<string, { id: number; retryAt: number }>();
  /** Entries claimed and being delivered here: a poll that reclaims one (a slow send) leaves it to that delivery. */
  readonly #inHand = new Set<number>();
  /**
   * Entries whose send reached the platform but whose `markOutboxSent` failed (the store unreachable): the platform
   * ids, marked at each poll until the store takes them. Never sent again from here, also when a poll reclaims them.
   */
  readonly #sentUnmarked = new Map<number, string[]>();
  /** Entries whose failure could not be recorded (the store unreachable): recorded at each poll until it takes it. */
  readonly #failureUnrecorded = new Map<number, { entry: OutboxEntry; failure: OutboxFailure }>();
  #backlog = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #ticking = false;
  #recovered: Promise<void> | undefined;
  #started = false;
  /** Set by `stop` until the next `start`: what is handed over meanwhile is left pending, unsent, for whoever is next. */
  #stopped = false;
  /** Entries handed to `deliver` before `start`, in order. */
  #held: OutboxEntry[] = [];
  /** Per reply entry handed to `deliver` with `onFirstChunk`: told once its first chunk reached the platform. */
  readonly #firstChunk = new Map<number, () => void>();

  constructor(options: OutboxDispatcherOptions) {
    this.#options = options;
    this.#logger = options.logger ?? SILENT_LOGGER;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Crash recovery: entries left in-flight go back to pending, marked as possible resends. Nothing is sent until
   * `start`. Contract: runs once (later calls do nothing); call it before anything claims an entry for a send.
   */
  /** Entries being sent now (claimed, not yet sent or failed): the `chorus.outbox.backlog` gauge. */
  get backlog(): number {
    return this.#backlog;
  }

  async recover(): Promise<void> {
    this.#recovered ??= this.#options.store.requeueInFlightOutbox().then((requeued) => {
      for (const entry of requeued) this.#resent.add(entry.id);
    });
    await this.#recovered;
  }

  /**
   * Recovery made elsewhere (a cluster instance taking sessions over): `requeued` entries were in flight at another
   * instance, their sends' outcomes unknown — they are marked as possible resends. Global recovery (`recover`) then
   * does nothing: other instances' in-flight entries are theirs. Contract: call before `start`, and on each takeover.
   */
  adoptRequeued(requeued: readonly OutboxEntry[]): void {
    this.#recovered ??= Promise.resolve();
    for (const entry of requeued) {
      // Sent from here already (only its mark was lost), or being sent here now: its outcome is known here.
      if (!this.#sentUnmarked.has(entry.id) && !this.#inHand.has(entry.id)) this.#resent.add(entry.id);
    }
  }

  /**
   * A takeover's requeued entries (see `adoptRequeued`), claimed now and queued in their sessions' delivery chains,
   * so that the replies of turns run after the takeover leave behind them, in the session's order, instead of
   * overtaking them until the next poll. An entry due later (its previous sender may still record it sent, see the
   * store's grace) is left to the poll, and its session's later entries wait behind it until then.
   * Contract: resolves once they are queued (not sent); an entry another poll claimed first is left to it.
   */
  async queueRequeued(requeued: readonly OutboxEntry[]): Promise<void> {
    this.adoptRequeued(requeued);
    const now = this.#now();
    for (const entry of requeued) {
      // Sent from here (only its mark is owed) or being sent here: it holds nothing back.
      if (entry.nextAttemptAt <= now || this.#sentUnmarked.has(entry.id) || this.#inHand.has(entry.id)) continue;
      const ahead = this.#retrying.get(entry.sessionKey);
      if (ahead === undefined || ahead.id > entry.id) {
        this.#retrying.set(entry.sessionKey, { id: entry.id, retryAt: entry.nextAttemptAt });
      }
    }
    const due = requeued.filter((entry) => entry.nextAttemptAt <= now);
    const claim = (entry: OutboxEntry): Promise<OutboxEntry | undefined> =>
      this.#options.store.claimOutboxEntry(entry.id).catch((error: unknown) => {
        this.#logger.error({ outboxId: entry.id, error: describeError(error) }, "requeued reply left to the next poll");
        return undefined;
      });
    const claimed = await Promise.all(due.map(claim));
    for (const entry of claimed) {
      if (entry === undefined) continue;
      // Claimed again by this instance: what it already knows of the entry settles it, without a second send.
      this.#failureUnrecorded.delete(entry.id);
      const ids = this.#sentUnmarked.get(entry.id);
      if (ids !== undefined) {
        await this.#markSent(entry, ids);
        continue;
      }
      if (this.#inHand.has(entry.id)) continue;
      if (this.#started) void this.#enqueue(entry);
      else this.#held.push(entry);
    }
  }

  /**
   * Starts sending, once the channels can: recovers if that has not happened, then delivers the due entries (oldest
   * first) and what `deliver` was handed meanwhile, and polls every `pollMs`.
   * Contract: resolves once that first round has been delivered (or has failed and been rescheduled).
   */
  async start(): Promise<void> {
    await this.recover();
    if (this.#started) return;
    this.#stopped = false;
    const due = await this.#claimDue();
    this.#started = true;
    const held = this.#held;
    this.#held = [];
    const first = [...due, ...held].map((entry) => this.#enqueue(entry));
    this.#timer = setInterval(() => void this.tick(), this.#options.pollMs ?? 1000);
    this.#timer.unref?.();
    await Promise.all(first);
  }

  /**
   * Stops polling and sending. Contract: waits for deliveries under way; entries handed to `deliver` meanwhile or
   * afterwards (until the next `start`) are left pending, never sent here — not as sends of an unknown outcome.
   */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#started = false;
    this.#stopped = true;
    await Promise.all(this.#chains.values());
    await this.#releaseHeld();
  }

  /**
   * Entries handed over while stopping (a turn's commit claimed them) were never sent: back to pending, so whoever
   * sends them next — the next owner, the next start — sends them as they are, not as resends of an unknown outcome.
   * Left claimed (a crash's case) when the store does not take it.
   */
  async #releaseHeld(): Promise<void> {
    const held = this.#held;
    this.#held = [];
    for (const entry of held) await this.#unclaim(entry);
  }

  async #unclaim(entry: OutboxEntry): Promise<void> {
    this.#inHand.delete(entry.id);
    await this.#options.store
      .markOutboxFailed(entry.id, { error: "not sent: its instance stopped first", retryAt: this.#now() })
      .catch(() => {});
  }

  /** Delivers due entries once (nothing before `start`). Contract: returns how many were claimed. */
  async tick(): Promise<number> {
    if (this.#ticking || !this.#started) return 0;
    this.#ticking = true;
    try {
      await this.#settleUnrecorded();
      const due = await this.#claimDue();
      await Promise.all(due.map((entry) => this.#enqueue(entry)));
      return due.length;
    } finally {
      this.#ticking = false;
    }
  }

  async #claimDue(): Promise<OutboxEntry[]> {
    let claimed: OutboxEntry[];
    try {
      claimed = await this.#options.store.claimDueOutbox(100, {
        reclaimInFlightAfterMs: this.#options.reclaimInFlightAfterMs ?? 60_000,
      });
    } catch (error) {
      this.#logger.error({ error: describeError(error) }, "outbox poll failed");
      return [];
    }
    const due: OutboxEntry[] = [];
    const fresh = claimed.filter((entry) => !this.#inHand.has(entry.id));
    // In hand from the claim on (before any await): a commit handing the same entry over meanwhile leaves it to us.
    for (const entry of fresh) this.#inHand.add(entry.id);
    for (const entry of fresh) {
      const ids = this.#sentUnmarked.get(entry.id);
      if (ids !== undefined) {
        // Sent already, only its mark was lost: marked now, never sent twice from here.
        await this.#markSent(entry, ids);
        this.#inHand.delete(entry.id);
        continue;
      }
      // Its failure was never recorded; the reclaim is its retry.
      this.#failureUnrecorded.delete(entry.id);
      due.push(entry);
    }
    return due;
  }

  /**
   * The writes a store outage made fail, tried again: sends to mark sent, failures to record. An entry found settled
   * elsewhere (another instance's claim, sent, gone) is dropped, with any retry record of its session pointing at it.
   */
  async #settleUnrecorded(): Promise<void> {
    for (const [id, ids] of [...this.#sentUnmarked]) {
      const entry = { id } as OutboxEntry;
      if (!(await this.#markSent(entry, ids))) return;
    }
    for (const [id, { entry, failure }] of [...this.#failureUnrecorded]) {
      try {
        await this.#options.store.markOutboxFailed(id, failure);
        this.#failureUnrecorded.delete(id);
      } catch (error) {
        if (!settledElsewhere(error)) return;
        this.#failureUnrecorded.delete(id);
        this.#doneRetrying(entry);
      }
    }
  }

  /**
   * Marks a sent entry; a store failure keeps it in `#sentUnmarked` for the next poll. Contract: true unless the store
   * failed (an entry settled elsewhere counts as done).
   */
  async #markSent(entry: OutboxEntry, ids: string[]): Promise<boolean> {
    try {
      await this.#options.store.markOutboxSent(entry.id, ids);
      this.#sentUnmarked.delete(entry.id);
      return true;
    } catch (error) {
      if (settledElsewhere(error)) {
        this.#sentUnmarked.delete(entry.id);
        this.#logger.warn({ outboxId: entry.id, error: describeError(error) }, "a sent reply was settled elsewhere");
        return true;
      }
      this.#sentUnmarked.set(entry.id, ids);
      this.#logger.error(
        { outboxId: entry.id, error: describeError(error) },
        "sent, but could not record it: marked again when the store answers",
      );
      return false;
    }
  }

  /**
   * Claims and delivers entries just written (e.g. by a turn's commit), in order per session. An entry that arrives
   * `in-flight` was claimed by the commit that wrote it (`claimOutbox`) and is sent without another claim.
   * `onFirstChunk` is told when the first chunk of a `reply` among them reaches the platform (a retry's included).
   * Contract: pass an in-flight entry only from that commit, once — it is then this dispatcher's to send.
   */
  async deliver(entries: readonly OutboxEntry[], onFirstChunk?: () => void): Promise<void> {
    if (onFirstChunk !== undefined) {
      for (const entry of entries) if (entry.kind === "reply") this.#firstChunk.set(entry.id, onFirstChunk);
    }
    await Promise.all(
      entries.map(async (entry) => {
        // Already being delivered here (a poll reclaimed it first): that delivery sends it, once.
        if (entry.status === "in-flight" && this.#inHand.has(entry.id)) return;
        // Stopped: left to whoever sends next, as never sent (a claim by its commit is undone).
        if (this.#stopped) {
          if (entry.status === "in-flight") await this.#unclaim(entry);
          return;
        }
        const claimed = entry.status === "in-flight" ? entry : await this.#options.store.claimOutboxEntry(entry.id);
        if (claimed === undefined) return;
        // Before `start` the channels may not be able to send yet: the entry waits (claimed; a crash requeues it).
        this.#inHand.add(claimed.id);
        if (this.#started) await this.#enqueue(claimed);
        else this.#held.push(claimed);
      }),
    );
  }

  /** Waits until every delivery under way has finished. */
  async idle(): Promise<void> {
    while (this.#chains.size > 0) await Promise.all(this.#chains.values());
  }

  #enqueue(entry: OutboxEntry): Promise<void> {
    this.#inHand.add(entry.id);
    const key = entry.sessionKey;
    const previous = this.#chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.#deliverOne(entry));
    this.#chains.set(key, next);
    void next.finally(() => {
      if (this.#chains.get(key) === next) this.#chains.delete(key);
    });
    return next;
  }

  async #deliverOne(entry: OutboxEntry): Promise<void> {
    let trace: DeliveryTrace | undefined;
    this.#backlog++;
    try {
      if (entry.kind === "subagent-result") {
        await this.#options.acceptSubagentResult(entry);
        return;
      }
      const ahead = await this.#aheadOf(entry);
      if (ahead !== undefined) {
        await this.#holdBehind(entry, ahead);
        return;
      }
      const payload = asChatPayload(entry.payload);
      if (payload === undefined) throw new PermanentDeliveryError("the outbox payload is not a chat message");
      trace = new DeliveryTrace({
        outboxId: entry.id,
        attempt: entry.attempts,
        channel: payload.channel,
        createdAt: entry.createdAt,
        now: this.#now(),
        traceparent: entry.traceparent,
      });
      const ids = await this.#sendChat(entry, payload);
      this.#resent.delete(entry.id);
      this.#doneRetrying(entry);
      trace.sent(ids.length, this.#now());
      // The platform has it: whatever the store says now, it is never sent again from here.
      await this.#markSent(entry, ids);
    } catch (error) {
      await this.#failed(entry, error, trace);
    } finally {
      this.#inHand.delete(entry.id);
      this.#backlog--;
    }
  }

  /**
   * The earlier entry of the same chat this one must wait behind, if any. A retry record whose time has passed is
   * checked against the store: an entry sent, given up or gone (settled elsewhere, e.g. by a new owner) holds nothing
   * back any more — a chat never waits behind a record that outlived its entry.
   */
  async #aheadOf(entry: OutboxEntry): Promise<{ id: number; retryAt: number } | undefined> {
    const ahead = this.#retrying.get(entry.sessionKey);
    if (ahead === undefined || ahead.id >= entry.id) return undefined;
    if (ahead.retryAt > this.#now() || this.#failureUnrecorded.has(ahead.id) || this.#inHand.has(ahead.id)) {
      return ahead;
    }
    try {
      const current = await this.#options.store.getOutboxEntry(ahead.id);
      if (current !== undefined && (current.status === "pending" || current.status === "in-flight")) return ahead;
    } catch {
      return ahead;
    }
    if (this.#retrying.get(entry.sessionKey)?.id === ahead.id) this.#retrying.delete(entry.sessionKey);
    return undefined;
  }

  async #sendChat(entry: OutboxEntry, payload: ChatDeliveryPayload): Promise<string[]> {
    const channel = this.#options.channelFor(payload.channel, payload.accountId);
    if (channel === undefined) {
      // Retried like a failed send: a channel that could not start yet (its platform unreachable at boot) may come
      // back; one removed for good is given up after `transientRetryWindowMs`.
      throw new ChannelNotRunningError(`no channel ${payload.channel}/${payload.accountId} is running`);
    }
    const done = this.#progress.get(entry.id) ?? [];
    this.#progress.set(entry.id, done);
    const ids = await sendChatChunks(channel, payload, {
      entryId: entry.id,
      resent: this.#resent.has(entry.id),
      done,
      chunkArrived: () => this.#chunkArrived(entry.id),
    });
    this.#progress.delete(entry.id);
    return ids;
  }

  async #failed(entry: OutboxEntry, error: unknown, trace?: DeliveryTrace): Promise<void> {
    const message = describeError(error);
    const now = this.#now();
    const forever = entry.kind === "subagent-result";
    const { permanent, retryAfterMs: retryAfter } = retryPlan(entry, error, now, {
      baseRetryMs: this.#options.baseRetryMs ?? 1000,
      maxAttempts: this.#options.maxAttempts ?? 8,
      transientRetryWindowMs: this.#options.transientRetryWindowMs ?? 21_600_000,
    });
    trace?.failed(error, !permanent);
    reportDeliveryFailure({ events: this.#options.events, logger: this.#logger }, entry, {
      error: message,
      at: now,
      willRetry: !permanent,
    });
    if (permanent) {
      this.#progress.delete(entry.id);
      this.#firstChunk.delete(entry.id);
      this.#doneRetrying(entry);
    } else if (!forever) {
      this.#retrying.set(entry.sessionKey, { id: entry.id, retryAt: now + retryAfter });
    }
    await this.#recordFailure(
      entry,
      permanent ? { error: message } : { error: message, retryAt: now + retryAfter },
      "could not record a failed delivery",
    );
  }

  /**
   * Records a failure; when the store cannot take it, the entry stays claimed here and is recorded at a later poll
   * (`#settleUnrecorded`) — never left in flight for good.
   */
  async #recordFailure(entry: OutboxEntry, failure: OutboxFailure, what: string): Promise<void> {
    try {
      await this.#options.store.markOutboxFailed(entry.id, failure);
    } catch (error) {
      if (settledElsewhere(error)) {
        this.#doneRetrying(entry);
        return;
      }
      this.#failureUnrecorded.set(entry.id, { entry, failure });
      this.#logger.error({ outboxId: entry.id, error: describeError(error) }, what);
    }
  }

  /**
   * Puts an entry back until the earlier entry of its session has been retried, so that a chat never reads a later
   * reply before an earlier one. Not a failure: no event, no log line (the claim that brought it here still counted
   * as an attempt, which only matters for failures bounded by `maxAttempts`).
   */
  async #holdBehind(entry: OutboxEntry, ahead: { id: number; retryAt: number }): Promise<void> {
    await this.#recordFailure(
      entry,
      {
        error: `waiting behind outbox entry ${ahead.id} of the same chat, which waits for its retry`,
        retryAt: ahead.retryAt,
      },
      "could not hold an outbox entry back",
    );
  }

  /** A chunk of the entry reached the platform: the first one of a reply is told (once). */
  #chunkArrived(id: number): void {
    const told = this.#firstChunk.get(id);
    if (told === undefined) return;
    this.#firstChunk.delete(id);
    told();
  }

  #doneRetrying(entry: OutboxEntry): void {
    if (this.#retrying.get(entry.sessionKey)?.id === entry.id) this.#retrying.delete(entry.sessionKey);
  }
}

export { PermanentDeliveryError } from "./delivery-errors.js";
