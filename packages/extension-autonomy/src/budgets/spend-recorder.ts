import type { SessionStore, SpendBooking } from "@chorus/store";

/**
 * Writes settled calls' spend to the store's ledger off the message path, in batches. Immediate (a gateway alone on
 * its store): batches form by themselves — while one `recordSpend` is under way, the bookings that arrive wait and go
 * together in the next (the store adds up those of one row); when quiet each call is written at once. Deferred (a
 * cluster instance): bookings only queue, and `flush` (run on each heartbeat and at stop) writes them in one batch,
 * so a message costs no spend statement of its own.
 * Contract: every booking is handed to the store once; each write is handed to `persist` (the gateway tracks it, so
 * `Gateway.idle()` and `stop()` wait for it, and logs a failure); a failed batch does not stop later ones.
 */
export class SpendRecorder {
  readonly #store: SessionStore;
  readonly #persist: (work: Promise<unknown>) => void;
  readonly #deferred: boolean;
  #pending: SpendBooking[] = [];
  #writing: Promise<void> | undefined;

  constructor(store: SessionStore, persist: (work: Promise<unknown>) => void, options: { deferred?: boolean } = {}) {
    this.#store = store;
    this.#persist = persist;
    this.#deferred = options.deferred === true;
  }

  add(bookings: readonly SpendBooking[]): void {
    this.#pending.push(...bookings);
    if (!this.#deferred) void this.flush();
  }

  /** Writes what is queued (joining a write under way). Contract: never rejects; a failure goes to `persist`. */
  flush(): Promise<void> {
    if (this.#writing !== undefined || this.#pending.length === 0) return this.#writing ?? Promise.resolve();
    const drain = this.#drain();
    this.#persist(drain);
    this.#writing = drain.catch(() => {});
    return this.#writing;
  }

  async #drain(): Promise<void> {
    let failure: unknown;
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending;
        this.#pending = [];
        await this.#store.recordSpend(batch).catch((error: unknown) => {
          failure ??= error;
        });
      }
    } finally {
      // Cleared as the loop ends (no await between): a booking added from now on starts its own write.
      this.#writing = undefined;
    }
    if (failure !== undefined) throw failure;
  }
}
