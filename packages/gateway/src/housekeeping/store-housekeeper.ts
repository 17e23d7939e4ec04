import { setImmediate as nextTurn } from "node:timers/promises";
import type { SessionStore } from "@chorus/store";
import { describeError, type GatewayLogger, SILENT_LOGGER } from "../logging/gateway-logger.js";

/** How the gateway keeps its store from growing without bound. */
export interface StoreHousekeepingOptions {
  /** How often a sweep runs (one also runs at start). Default 600 000 ms (10 min). */
  intervalMs?: number;
  /**
   * How long a sent reply or notice stays in the outbox: later edits of it (a settled approval request) and anyone
   * looking into a delivery need it for a while. Default 86 400 000 ms (24 h).
   */
  sentOutboxRetentionMs?: number;
  /** Rows removed per step; other work runs between steps, so a large backlog never blocks the event loop for long. Default 500. */
  batchSize?: number;
}

/** What one sweep removed. */
export interface HousekeepingSweep {
  /** Inbound event ids past the store's dedupe TTL. */
  readonly inboundEvents: number;
  /** Sent outbox entries past `sentOutboxRetentionMs`. */
  readonly sentOutbox: number;
}

/** The defaults of `StoreHousekeepingOptions`. */
export const HOUSEKEEPING_DEFAULTS = {
  intervalMs: 600_000,
  sentOutboxRetentionMs: 86_400_000,
  batchSize: 500,
} as const;

/**
 * Prunes what the store only needs for a while: inbound event ids past their dedupe TTL and sent outbox entries past
 * their retention, at start and then every `intervalMs`, in steps of `batchSize` rows. Pending, in-flight and failed
 * outbox entries, transcripts, sessions and runs are never touched.
 * Contract: a sweep never throws (failures are logged and the next sweep tries again); `stop` waits for a running
 * sweep to finish its current step, and no step starts after it.
 */
export class StoreHousekeeper {
  readonly #store: SessionStore;
  readonly #now: () => number;
  readonly #logger: GatewayLogger;
  readonly #intervalMs: number;
  readonly #retentionMs: number;
  readonly #batchSize: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<HousekeepingSweep> | undefined;
  #stopped = false;

  constructor(deps: {
    store: SessionStore;
    now?: () => number;
    logger?: GatewayLogger;
    options?: StoreHousekeepingOptions;
  }) {
    this.#store = deps.store;
    this.#now = deps.now ?? Date.now;
    this.#logger = deps.logger ?? SILENT_LOGGER;
    const options = deps.options ?? {};
    this.#intervalMs = positiveInteger("intervalMs", options.intervalMs ?? HOUSEKEEPING_DEFAULTS.intervalMs);
    this.#retentionMs = positiveInteger(
      "sentOutboxRetentionMs",
      options.sentOutboxRetentionMs ?? HOUSEKEEPING_DEFAULTS.sentOutboxRetentionMs,
    );
    this.#batchSize = positiveInteger("batchSize", options.batchSize ?? HOUSEKEEPING_DEFAULTS.batchSize);
  }

  /** Sweeps now and then every `intervalMs`; the timer never keeps the process alive. */
  start(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    void this.sweep();
    this.#timer = setInterval(() => void this.sweep(), this.#intervalMs);
    this.#timer.unref?.();
  }

  /** Stops the timer and waits for a running sweep. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One sweep (a sweep already running is joined, not doubled). Contract: never rejects. */
  sweep(): Promise<HousekeepingSweep> {
    this.#running ??= this.#sweep().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #sweep(): Promise<HousekeepingSweep> {
    const started = performance.now();
    const inboundEvents = await this.#inSteps("inbound events", (limit) => this.#store.pruneInboundEvents(limit));
    const before = this.#now() - this.#retentionMs;
    const sentOutbox = await this.#inSteps("sent outbox", (limit) => this.#store.pruneSentOutbox(before, limit));
    if (inboundEvents + sentOutbox > 0) {
      this.#logger.info(
        { inboundEvents, sentOutbox, ms: Math.round(performance.now() - started) },
        "store housekeeping pruned old rows",
      );
    }
    return { inboundEvents, sentOutbox };
  }

  /** Prunes step by step until a step removes less than a full batch; each step is its own store call (and COMMIT). */
  async #inSteps(what: string, prune: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    while (!this.#stopped) {
      let removed: number;
      try {
        removed = await prune(this.#batchSize);
      } catch (error) {
        this.#logger.warn({ what, error: describeError(error) }, "store housekeeping failed; the next sweep retries");
        break;
      }
      total += removed;
      if (removed < this.#batchSize) break;
      // Whatever else is waiting runs before the next step (a store that answers at once would otherwise hold the loop).
      await nextTurn();
    }
    return total;
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`housekeeping.${name} must be a positive integer, got ${value}.`);
  }
  return value;
}
