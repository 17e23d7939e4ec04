import { addByRewrite, compareSpendKeys, type HeldSpend, type SpendTable, spendKeyText } from "../core/spend-ledger.js";
import type { SpendBooking, SpendFilter, SpendKey, SpendRow } from "../store-types.js";
import type { UndoJournal } from "./undo-journal.js";

/**
 * The in-memory spend ledger's rows and holds, as the `SpendTable` that the shared rules in spend-ledger.ts run over.
 * Every write goes through the store's journal, so it rolls back with the transaction it was made in.
 */
export class MemorySpendTable implements SpendTable {
  readonly #journal: UndoJournal;
  /** Rows by `spendKeyText`. */
  readonly #rows = new Map<string, SpendRow>();
  /** Holds by `id` + row. */
  readonly #holds = new Map<string, HeldSpend>();

  constructor(journal: UndoJournal) {
    this.#journal = journal;
  }

  row(key: SpendKey): SpendRow | undefined {
    return this.#rows.get(spendKeyText(key));
  }

  write(next: SpendRow): void {
    this.#journal.put(this.#rows, spendKeyText(next), Object.freeze({ ...next }));
  }

  add(booking: SpendBooking, now: number): void {
    addByRewrite(this, booking, now);
  }

  list(filter: SpendFilter): SpendRow[] {
    return [...this.#rows.values()]
      .filter(
        (row) =>
          (filter.kind === undefined || row.kind === filter.kind) &&
          (filter.subject === undefined || row.subject === filter.subject) &&
          (filter.fromPeriod === undefined || row.period >= filter.fromPeriod) &&
          (filter.toPeriod === undefined || row.period <= filter.toPeriod),
      )
      .sort(compareSpendKeys);
  }

  holdsOf(id: string): HeldSpend[] {
    return [...this.#holds.values()].filter((hold) => hold.id === id);
  }

  lapsedHolds(key: SpendKey, now: number): HeldSpend[] {
    return [...this.#holds.values()].filter((hold) => spendKeyText(hold) === spendKeyText(key) && hold.heldUntil < now);
  }

  addHold(hold: HeldSpend): void {
    this.#journal.put(this.#holds, holdKey(hold), Object.freeze({ ...hold }));
  }

  deleteHold(hold: HeldSpend): void {
    this.#journal.remove(this.#holds, holdKey(hold));
  }
}

/** A hold's key: one hold has a share on each of its rows. */
function holdKey(hold: HeldSpend): string {
  return `${hold.id}\u0001${spendKeyText(hold)}`;
}
