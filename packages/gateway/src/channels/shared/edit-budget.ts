import { ChannelError } from "../../channel/channel-error.js";
import type { EditRate } from "../../channel/channel-types.js";

/**
 * A sliding-window budget of edits per key (a channel or chat), so a channel refuses an edit the platform would
 * rate-limit instead of spending a request on it.
 * Contract: `take(key)` records an edit and returns, or throws ChannelError "rate-limited" with `retryAfterMs` set
 * to when the oldest edit in the window leaves it; a refused edit uses no budget.
 */
export class EditBudget {
  readonly #rate: EditRate;
  readonly #now: () => number;
  readonly #windows = new Map<string, number[]>();

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
  }

  clear(): void {
    this.#windows.clear();
  }
}
