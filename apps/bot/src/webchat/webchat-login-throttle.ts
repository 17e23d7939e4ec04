/** Wrong tokens an address may send per window before the form refuses it for the rest of the window. */
const MAX_FAILURES = 5;
const WINDOW_MS = 60_000;
/** Addresses remembered at most (the oldest forgotten first), so a flood cannot grow memory. */
const MAX_ADDRESSES = 1000;

/**
 * Slows down guessing the WebChat access token: after 5 wrong tokens from one address within a minute, that
 * address is refused (429) until the minute is over.
 * Contract: bounded memory (1000 addresses); a right token is never counted.
 */
export class LoginThrottle {
  readonly #failures = new Map<string, { since: number; count: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Whether `address` may try a token now. */
  allows(address: string): boolean {
    const entry = this.#failures.get(address);
    if (entry === undefined || this.#now() - entry.since >= WINDOW_MS) return true;
    return entry.count < MAX_FAILURES;
  }

  /** Counts a wrong token from `address`. */
  fail(address: string): void {
    const now = this.#now();
    const entry = this.#failures.get(address);
    const fresh = entry === undefined || now - entry.since >= WINDOW_MS;
    this.#failures.delete(address);
    this.#failures.set(address, fresh ? { since: now, count: 1 } : { since: entry.since, count: entry.count + 1 });
    if (this.#failures.size > MAX_ADDRESSES) {
      const oldest = this.#failures.keys().next().value;
      if (oldest !== undefined) this.#failures.delete(oldest);
    }
  }
}
