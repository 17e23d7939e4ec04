/** Discord's `session_start_limit` of `GET /gateway/bot` (the max_concurrency part comes from the world). */
export interface SessionStartLimitView {
  readonly total: number;
  readonly remaining: number;
  readonly reset_after: number;
}

/** A bot's daily IDENTIFY budget as the fake sets it: `total`, what is `remaining`, ms until it resets to `total`. */
export interface SessionStartLimitSpec {
  readonly total?: number;
  readonly remaining?: number;
  readonly resetAfterMs?: number;
}

/** Discord's: 1000 IDENTIFYs a day for a bot that has not asked for more. */
const DEFAULT_TOTAL = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One bot's daily IDENTIFY budget: every IDENTIFY spends one, RESUME none; at the reset it is full again (the next
 * reset a day later).
 * Contract: `spend` returns false and spends nothing when none is left (Discord would reset the bot's token).
 */
export class SessionStartLimit {
  #total = DEFAULT_TOTAL;
  #remaining = DEFAULT_TOTAL;
  #resetAt: number;

  constructor(spec: SessionStartLimitSpec = {}, now = Date.now()) {
    this.#resetAt = now + DAY_MS;
    this.set(spec, now);
  }

  /** Changes the budget; fields left out keep their value. */
  set(spec: SessionStartLimitSpec, now = Date.now()): void {
    if (spec.total !== undefined) this.#total = spec.total;
    this.#remaining = spec.remaining ?? (spec.total === undefined ? this.#remaining : spec.total);
    if (spec.resetAfterMs !== undefined) this.#resetAt = now + spec.resetAfterMs;
  }

  view(now = Date.now()): SessionStartLimitView {
    this.#resetIfDue(now);
    return { total: this.#total, remaining: this.#remaining, reset_after: Math.max(0, this.#resetAt - now) };
  }

  spend(now = Date.now()): boolean {
    this.#resetIfDue(now);
    if (this.#remaining <= 0) return false;
    this.#remaining -= 1;
    return true;
  }

  #resetIfDue(now: number): void {
    if (now < this.#resetAt) return;
    this.#remaining = this.#total;
    this.#resetAt = now + DAY_MS;
  }
}
