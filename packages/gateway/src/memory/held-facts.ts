import type { NewFact } from "@chorus/memory";

/** A fact the model asked to remember, waiting for the turn that produced it to be committed. */
export interface HeldFact {
  readonly toolCallId: string;
  readonly fact: NewFact;
}

/**
 * Facts held per session until their turn commits: a fact is written only once the `remember` call and its result
 * are durable in the transcript, so a crash before the commit leaves no fact behind. Contract: one turn at a time
 * per session (the lane), so a session's held facts are its running turn's.
 */
export class HeldFacts {
  readonly #bySession = new Map<string, HeldFact[]>();

  hold(sessionKey: string, held: HeldFact): void {
    const list = this.#bySession.get(sessionKey) ?? [];
    list.push(held);
    this.#bySession.set(sessionKey, list);
  }

  /** The session's held facts, removed. */
  take(sessionKey: string): HeldFact[] {
    const list = this.#bySession.get(sessionKey) ?? [];
    this.#bySession.delete(sessionKey);
    return list;
  }
}
