/**
 * The in-memory store's transactions: every write to its maps and sets goes through here, and while a transaction is
 * open each write first logs its inverse. `rollback` replays the log backwards, so the tables end as they were at
 * `begin`. One journal is shared by all the tables of a store, so their writes undo in the order they were made.
 */
export class UndoJournal {
  /** Undo steps of the open transaction, oldest first; `undefined` when none is open (writes then log nothing). */
  #steps: (() => void)[] | undefined;

  begin(): void {
    this.#steps = [];
  }

  commit(): void {
    this.#steps = undefined;
  }

  rollback(): void {
    const steps = this.#steps ?? [];
    this.#steps = undefined;
    for (let i = steps.length - 1; i >= 0; i--) steps[i]?.();
  }

  /** Runs `fn` in its own transaction, or inside the one already open (then the outer one decides). */
  atomically<T>(fn: () => T): T {
    if (this.#steps !== undefined) return fn();
    this.begin();
    try {
      const result = fn();
      this.commit();
      return result;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  /** Logs an undo step for a write that is not a map or set entry (a transcript grown in place). */
  onRollback(step: () => void): void {
    this.#steps?.push(step);
  }

  /** Sets `key` to `value`; rollback restores the previous value, or removes a key that was new. */
  put<K, V>(map: Map<K, V>, key: K, value: V): void {
    if (this.#steps !== undefined) {
      const had = map.has(key);
      const previous = map.get(key);
      this.#steps.push(() => (had ? map.set(key, previous as V) : map.delete(key)));
    }
    map.set(key, value);
  }

  /** Adds `value` to the set or takes it out; logs nothing when the set already agrees. */
  setMember<T>(set: Set<T>, value: T, present: boolean): void {
    if (set.has(value) === present) return;
    if (this.#steps !== undefined) this.#steps.push(() => (present ? set.delete(value) : set.add(value)));
    if (present) set.add(value);
    else set.delete(value);
  }

  /** Deletes `key`, saying whether it was there; rollback puts it back (at the end of the map's order). */
  remove<K, V>(map: Map<K, V>, key: K): boolean {
    if (!map.has(key)) return false;
    if (this.#steps !== undefined) {
      const previous = map.get(key) as V;
      this.#steps.push(() => map.set(key, previous));
    }
    return map.delete(key);
  }
}
