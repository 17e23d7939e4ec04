import type { NewFact } from "@chorus/memory";

/** A fact the model asked to remember, waiting for the turn that produced it to be committed. */
export interface HeldFact {
  readonly toolCallId: string;
  readonly fact: NewFact;
}

/**
 * Facts held per session until the commit that stores their `remember` result, which writes them in its own
 * transaction: a crash before that commit leaves no fact behind, a crash after it loses none. Contract: one turn at a time
 * per session (the lane), so a session's held facts are its running turn's.
 */
export class HeldFacts {
  readonly #bySession = new Map<string, HeldFact[]>();

  hold(sessionKey: string, held: HeldFact): void {
    const list = this.#bySession.get(sessionKey) ?? [];
    list.push(held);
    this.#bySession.set(sessionKey, list);
  }

  /** The session's held facts whose `remember` call is one of `toolCallIds`, removed. */
  takeFor(sessionKey: string, toolCallIds: ReadonlySet<string>): HeldFact[] {
    const list = this.#bySession.get(sessionKey);
    if (list === undefined) return [];
    const taken = list.filter((held) => toolCallIds.has(held.toolCallId));
    if (taken.length === 0) return [];
    const rest = list.filter((held) => !toolCallIds.has(held.toolCallId));
    if (rest.length === 0) this.#bySession.delete(sessionKey);
    else this.#bySession.set(sessionKey, rest);
    return taken;
  }

  /** The session's held facts, removed. */
  take(sessionKey: string): HeldFact[] {
    const list = this.#bySession.get(sessionKey) ?? [];
    this.#bySession.delete(sessionKey);
    return list;
  }
}
