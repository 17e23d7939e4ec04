import { checkLimit } from "../core/store-validation.js";
import type { InboundEventRef } from "../store-types.js";
import type { UndoJournal } from "./undo-journal.js";

/**
 * The in-memory record of inbound event ids already seen, so a platform's redelivery is taken once. An id is
 * remembered for the TTL, then pruned; every write goes through the store's journal, so it rolls back with the
 * transaction it was made in. `record` and `prune` are `SessionStoreCore`'s `recordInboundEvent` and
 * `pruneInboundEvents`.
 */
export class MemoryInboundEvents {
  readonly #journal: UndoJournal;
  readonly #now: () => number;
  readonly #ttlMs: number;
  /** Inbound event key → when it was seen, in the order seen. */
  readonly #seen = new Map<string, number>();

  constructor(journal: UndoJournal, now: () => number, ttlMs: number) {
    this.#journal = journal;
    this.#now = now;
    this.#ttlMs = ttlMs;
  }

  record(ref: InboundEventRef): boolean {
    const key = JSON.stringify([ref.channel, ref.accountId, ref.eventId]);
    const now = this.#now();
    const seenAt = this.#seen.get(key);
    if (seenAt !== undefined && seenAt > now - this.#ttlMs) return false;
    // Re-inserted, not updated in place: the map stays in the order ids were seen, so pruning stops at the first live one.
    this.#journal.remove(this.#seen, key);
    this.#journal.put(this.#seen, key, now);
    return true;
  }

  prune(limit?: number): number {
    const max = checkLimit(limit) ?? Number.POSITIVE_INFINITY;
    const cutoff = this.#now() - this.#ttlMs;
    let removed = 0;
    for (const [key, seenAt] of this.#seen) {
      if (removed >= max || seenAt > cutoff) break;
      if (this.#journal.remove(this.#seen, key)) removed++;
    }
    return removed;
  }
}
