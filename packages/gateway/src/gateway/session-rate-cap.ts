/**
 * A per-session cap on accepted messages: at most `messages` per fixed window of `perMs`. Stops loops and floods
 * that the bot-loop brake does not see (e.g. a script posting as a person).
 * Contract: `allow` counts the message when it returns true; `tellOnce` is true for one refused message per window
 * (the chat hears once that it is too fast, not once per dropped message); remembers at most `maxSessions` sessions.
 */
export class SessionRateCap {
  readonly #windows = new Map<string, { start: number; count: number; told: boolean }>();
  readonly #messages: number;
  readonly #perMs: number;
  readonly #maxSessions: number;

  constructor(options: { messages: number; perMs: number; maxSessions?: number }) {
    this.#messages = options.messages;
    this.#perMs = options.perMs;
    this.#maxSessions = options.maxSessions ?? 10_000;
  }

  allow(sessionKey: string, now: number): boolean {
    let window = this.#windows.get(sessionKey);
    if (window === undefined || now - window.start >= this.#perMs) {
      this.#windows.delete(sessionKey);
      window = { start: now, count: 0, told: false };
      this.#windows.set(sessionKey, window);
      if (this.#windows.size > this.#maxSessions) this.#windows.delete(this.#windows.keys().next().value as string);
    }
    if (window.count >= this.#messages) return false;
    window.count++;
    return true;
  }

  /** After `allow` refused a message of the session: whether this is the window's first refusal (tell the chat). */
  tellOnce(sessionKey: string): boolean {
    const window = this.#windows.get(sessionKey);
    if (window === undefined || window.told) return false;
    window.told = true;
    return true;
  }

  /** How long a window lasts, for the chat's notice. */
  get windowMs(): number {
    return this.#perMs;
  }
}
