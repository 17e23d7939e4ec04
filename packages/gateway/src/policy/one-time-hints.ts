/**
 * Remembers which hints were already given, so an ignored group produces one log line, not one per message.
 * Contract: `first(key)` is true exactly once per key, until more than `maxKeys` keys push the oldest out.
 */
export class OneTimeHints {
  readonly #seen = new Set<string>();
  readonly #maxKeys: number;

  constructor(options: { maxKeys?: number } = {}) {
    this.#maxKeys = options.maxKeys ?? 10_000;
  }

  first(key: string): boolean {
    if (this.#seen.has(key)) return false;
    this.#seen.add(key);
    if (this.#seen.size > this.#maxKeys) this.#seen.delete(this.#seen.values().next().value as string);
    return true;
  }
}
