import { ChannelError } from "../channel/channel-error.js";
import type { EditRate } from "../channel/channel-types.js";

/** Below this many keys the budget never sweeps; above it, a sweep runs each time the key count doubles. */
const SWEEP_FLOOR = 1024;

/**
 * A sliding-window budget of edits per key (a channel or chat), so a channel refuses an edit the platform would
 * rate-limit instead of spending a request on it.
 * Contract: `take(key)` records an edit and returns, or throws ChannelError "rate-limited" with `retryAfterMs` set
 * to when the oldest edit in the window leaves it; a refused edit uses no budget. Memory stays bounded by the keys
 * edited within one window (a bot's chats over months would otherwise each keep an entry): keys whose edits all left
 * the window are dropped once the key count doubles.
 */
export class EditBudget {
  readonly #rate: EditRate;
  readonly #now: () => number;
  readonly #windows = new Map<string, number[]>();
  #sweepAbove = SWEEP_FLOOR;

  constructor(rate: EditRate, now: () => number = Date.now) {
    this.#rate = rate;
    this.#now = now;
  }

  take(key: string): void {
    const now = this.#now();
    const recent = (this.#windows.get(key) ?? []).filter((at) => now - at < this.#rate.perMs);
    if (recent.length >= this.#rate.edits) {
      const oldest = recent[0] ?? now;
      this.#windows.set(key, recent);
      throw new ChannelError("rate-limited", `edit budget of ${this.#rate.edits} per ${this.#rate.perMs} ms used up`, {
        retryAfterMs: Math.max(1, oldest + this.#rate.perMs - now),
      });
    }
    recent.push(now);
    this.#windows.set(key, recent);
    if (this.#windows.size > this.#sweepAbove) this.#sweep(now);
  }

  /** Keys held in memory (each edited within a window, or not swept yet). */
  get size(): number {
    return this.#windows.size;
  }

  clear(): void {
    this.#windows.clear();
    this.#sweepAbove = SWEEP_FLOOR;
  }

  #sweep(now: number): void {
    for (const [key, times] of this.#windows) {
      const last = times.at(-1);
      if (last === undefined || now - last >= this.#rate.perMs) this.#windows.delete(key);
    }
    // Amortised: the next sweep waits until the live keys have doubled, so each edit pays O(1) on average.
    this.#sweepAbove = Math.max(SWEEP_FLOOR, this.#windows.size * 2);
  }
}
