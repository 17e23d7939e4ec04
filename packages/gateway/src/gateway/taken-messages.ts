import type { LaneItem } from "../lanes/lane-item.js";

/** How many seqs a session remembers having taken (a sweep and the intake rarely race further apart). */
const REMEMBERED = 1024;

/** The higher of two seqs, either of which may be unknown. */
export function laterSeq(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** The store seq of a lane item, when it is a stored message. */
export function seqOf(item: LaneItem): number | undefined {
  return (item as { seq?: number }).seq;
}

/**
 * The stored messages one session runtime took into its lane: `taken` (queued, running or answered here: a message
 * reaching the lane twice, from the intake and a cluster sweep, runs once) and `pending` (not answered yet: left out
 * of the history an Agent is built with, as each is a prompt of its own turn).
 * Contract: a message given back (`forget`) may be taken again.
 */
export class TakenMessages {
  readonly #taken = new Set<number>();
  readonly #pending = new Set<number>();
  /** The message objects that are stored (the committer does not write them again). */
  readonly stored = new WeakSet<object>();

  /** Contract: false (nothing recorded) when the item's seq was taken already. */
  take(item: LaneItem): boolean {
    const seq = seqOf(item);
    if (seq !== undefined && this.#taken.has(seq)) return false;
    this.stored.add(item.message as object);
    if (seq !== undefined) {
      this.#taken.add(seq);
      if (this.#taken.size > REMEMBERED) this.#taken.delete(this.#taken.values().next().value as number);
      this.#pending.add(seq);
    }
    return true;
  }

  has(seq: number): boolean {
    return this.#taken.has(seq);
  }

  isPending(seq: number): boolean {
    return this.#pending.has(seq);
  }

  /** The item's turn started: it is answered by it. */
  started(item: LaneItem): void {
    const seq = seqOf(item);
    if (seq !== undefined) this.#pending.delete(seq);
  }

  /** The item's turn will be started again: it stays out of the history. */
  pendingAgain(item: LaneItem): void {
    const seq = seqOf(item);
    if (seq !== undefined) this.#pending.add(seq);
  }

  /** The item was given back (to the session's owner, or unanswered after a failed commit). */
  forget(item: LaneItem): void {
    const seq = seqOf(item);
    if (seq === undefined) return;
    this.#pending.delete(seq);
    this.#taken.delete(seq);
  }
}
