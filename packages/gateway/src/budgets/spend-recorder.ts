import type { SessionStore } from "../store/session-store.js";
import type { SpendBooking } from "../store/store-types.js";

/**
 * Writes settled calls' spend to the store's ledger off the message path (a gateway alone on its store), in batches
 * that form by themselves: while one `recordSpend` is under way, the bookings that arrive wait and go together in the
 * next (the store adds up those of one row). No timer: under load one write carries many calls, when quiet each call
 * is written at once.
 * Contract: every booking is handed to the store once; each write is handed to `persist` (the gateway tracks it, so
 * `Gateway.idle()` and `stop()` wait for it, and logs a failure); a failed batch does not stop later ones.
 */
export class SpendRecorder {
  readonly #store: SessionStore;
  readonly #persist: (work: Promise<unknown>) => void;
  #pending: SpendBooking[] = [];
  #writing = false;

  constructor(store: SessionStore, persist: (work: Promise<unknown>) => void) {
    this.#store = store;
    this.#persist = persist;
  }

  add(bookings: readonly SpendBooking[]): void {
    this.#pending.push(...bookings);
    if (this.#writing) return;
    this.#writing = true;
    this.#persist(this.#drain());
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
      this.#writing = false;
    }
    if (failure !== undefined) throw failure;
  }
}
