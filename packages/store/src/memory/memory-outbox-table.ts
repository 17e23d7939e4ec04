import { RECLAIMED_IN_FLIGHT_ERROR, staleClaimBefore } from "../core/reclaimed-in-flight.js";
import { checkLimit, notFound, statusList, toStoredJson } from "../core/store-validation.js";
import { SessionStoreError } from "../session-store-error.js";
import type {
  ClaimDueOptions,
  NewOutboxEntry,
  OutboxEntry,
  OutboxFailure,
  OutboxFilter,
  OutboxStatus,
} from "../store-types.js";
import { type HeldOutboxEntry, reveal } from "./memory-rows.js";
import type { UndoJournal } from "./undo-journal.js";

/**
 * The in-memory outbox: entries by id, and the state moves of delivery (pending → in-flight → sent, failed or pending
 * again). Every write goes through the store's journal, so a transaction's outbox writes roll back with the rest.
 * The methods are `SessionStoreCore`'s outbox operations (`enqueue` is `enqueueOutbox`, and so on).
 */
export class MemoryOutboxTable {
  readonly #journal: UndoJournal;
  readonly #now: () => number;
  readonly #entries = new Map<number, HeldOutboxEntry>();
  /** Ids of pending and in-flight entries, so claiming never walks the sent history. */
  readonly #unsent = new Set<number>();
  // Not rolled back: ids need only be unique and increasing, so one used by a rolled-back transaction is skipped.
  #nextId = 1;

  constructor(journal: UndoJournal, now: () => number) {
    this.#journal = journal;
    this.#now = now;
  }

  enqueue(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    const payloads = entries.map((entry) => toStoredJson(entry.payload, "outbox payload"));
    const at = this.#now();
    return entries.map((entry, index) => {
      const held: HeldOutboxEntry = Object.freeze({
        id: this.#nextId++,
        sessionKey: entry.sessionKey,
        ...(entry.runId !== undefined ? { runId: entry.runId } : {}),
        kind: entry.kind,
        payloadJson: payloads[index] as string,
        status: "pending",
        attempts: 0,
        createdAt: at,
        updatedAt: at,
        nextAttemptAt: entry.nextAttemptAt ?? at,
        platformMessageIds: Object.freeze([]),
        ...(entry.traceparent !== undefined ? { traceparent: entry.traceparent } : {}),
      });
      this.#journal.put(this.#entries, held.id, held);
      this.#journal.setMember(this.#unsent, held.id, true);
      return reveal(held);
    });
  }

  get(id: number): OutboxEntry | undefined {
    const held = this.#entries.get(id);
    return held === undefined ? undefined : reveal(held);
  }

  enqueueClaimed(entries: readonly NewOutboxEntry[]): OutboxEntry[] {
    return this.enqueue(entries).map((entry) => this.claim(entry.id) ?? entry);
  }

  claim(id: number): OutboxEntry | undefined {
    const held = this.#entries.get(id);
    if (held === undefined || held.status !== "pending") return undefined;
    return this.#replace(held, { status: "in-flight", attempts: held.attempts + 1 });
  }

  claimDue(limit: number, options?: ClaimDueOptions): OutboxEntry[] {
    const max = checkLimit(limit) ?? 1;
    const now = this.#now();
    const staleBefore = staleClaimBefore(now, options?.reclaimInFlightAfterMs);
    const stale = (held: HeldOutboxEntry): boolean =>
      staleBefore !== undefined && held.status === "in-flight" && held.updatedAt <= staleBefore;
    const due = this.#unsentEntries()
      .filter((held) => (held.status === "pending" && held.nextAttemptAt <= now) || stale(held))
      .sort((a, b) => a.id - b.id)
      .slice(0, max);
    return due.map((held) =>
      this.#replace(held, {
        status: "in-flight",
        attempts: held.attempts + 1,
        ...(stale(held) ? { lastError: RECLAIMED_IN_FLIGHT_ERROR } : {}),
      }),
    );
  }

  markSent(id: number, platformMessageIds: readonly string[]): OutboxEntry {
    const held = this.#requireInFlight(id);
    const { lastError: _dropped, ...rest } = held;
    return this.#replace(rest, { status: "sent", platformMessageIds: Object.freeze([...platformMessageIds]) });
  }

  markFailed(id: number, failure: OutboxFailure): OutboxEntry {
    const held = this.#requireInFlight(id);
    if (failure.retryAt === undefined) return this.#replace(held, { status: "failed", lastError: failure.error });
    return this.#replace(held, { status: "pending", lastError: failure.error, nextAttemptAt: failure.retryAt });
  }

  list(filter: OutboxFilter = {}): OutboxEntry[] {
    const limit = checkLimit(filter.limit);
    const statuses = statusList<OutboxStatus>(filter.status);
    const found = [...this.#entries.values()]
      .filter(
        (held) =>
          (statuses === undefined || statuses.includes(held.status)) &&
          (filter.sessionKey === undefined || held.sessionKey === filter.sessionKey),
      )
      .sort((a, b) => a.id - b.id);
    return (limit === undefined ? found : found.slice(0, limit)).map(reveal);
  }

  requeueInFlight(): OutboxEntry[] {
    const now = this.#now();
    return this.#unsentEntries()
      .filter((held) => held.status === "in-flight")
      .sort((a, b) => a.id - b.id)
      .map((held) => this.#replace(held, { status: "pending", nextAttemptAt: now }));
  }

  pruneSent(before: number, limit?: number): number {
    const max = checkLimit(limit) ?? Number.POSITIVE_INFINITY;
    let removed = 0;
    // In id order, which is creation order: an entry created at or after `before` was updated after it too, as was
    // every later one.
    for (const held of this.#entries.values()) {
      if (removed >= max || held.createdAt >= before) break;
      if (held.status === "sent" && held.updatedAt < before && this.#journal.remove(this.#entries, held.id)) removed++;
    }
    return removed;
  }

  #requireInFlight(id: number): HeldOutboxEntry {
    const held = this.#entries.get(id);
    if (held === undefined) throw notFound("outbox entry", id);
    if (held.status !== "in-flight") {
      throw new SessionStoreError("invalid-state", `Outbox entry ${id} is ${held.status}, not in-flight.`);
    }
    return held;
  }

  #replace(held: HeldOutboxEntry, change: Partial<HeldOutboxEntry>): OutboxEntry {
    const next: HeldOutboxEntry = Object.freeze({ ...held, ...change, updatedAt: this.#now() });
    this.#journal.put(this.#entries, next.id, next);
    this.#journal.setMember(this.#unsent, next.id, next.status === "pending" || next.status === "in-flight");
    return reveal(next);
  }

  #unsentEntries(): HeldOutboxEntry[] {
    const entries: HeldOutboxEntry[] = [];
    for (const id of this.#unsent) {
      const held = this.#entries.get(id);
      if (held !== undefined) entries.push(held);
    }
    return entries;
  }
}
