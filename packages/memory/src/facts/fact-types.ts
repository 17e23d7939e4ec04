/** Where a fact came from: the session, the message that stated it (when known) and when (epoch ms). */
export interface FactSource {
  readonly sessionKey: string;
  readonly messageId?: string;
  readonly at: number;
}

/** An earlier wording of a fact, kept when a contradicting fact (same subject) replaced it. */
export interface FactRevision {
  readonly text: string;
  readonly source: FactSource;
  /** When it was replaced (epoch ms). */
  readonly replacedAt: number;
}

/** A stored fact. `scope` is opaque to the store (see `formatMemoryScope`); times are epoch ms. */
export interface Fact {
  readonly id: string;
  readonly scope: string;
  readonly text: string;
  /** The subject key ("favourite colour"): a new fact with the same subject in the same scope replaces this one. */
  readonly subject?: string;
  readonly source: FactSource;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Earlier wordings, oldest first. */
  readonly history: readonly FactRevision[];
}

/** What `remember` is given. */
export interface NewFact {
  readonly scope: string;
  readonly text: string;
  readonly subject?: string;
  readonly source: FactSource;
}

/**
 * What `remember` did: `added` a new fact; `merged` into an identical one (same scope, same text once normalised;
 * its `updatedAt` moves); `replaced` the text of the fact with the same subject (the old text is in `history`).
 */
export type RememberResult =
  | { readonly kind: "added"; readonly fact: Fact }
  | { readonly kind: "merged"; readonly fact: Fact }
  | { readonly kind: "replaced"; readonly fact: Fact; readonly previous: FactRevision };

/** One page of a scope's facts, newest first. */
export interface FactPage {
  readonly facts: readonly Fact[];
  readonly total: number;
  readonly offset: number;
}

/** A full-text match: the fact and its text score (higher is better; comparable within one search only). */
export interface FactHit {
  readonly fact: Fact;
  readonly score: number;
}

/** How many facts a scope holds (what admins may see). */
export interface ScopeCount {
  readonly scope: string;
  readonly count: number;
}

/** Everything a scope holds, as handed to a user who asks for it. */
export interface MemoryExport {
  readonly format: "chorus-memory-export";
  readonly version: 1;
  readonly scope: string;
  readonly exportedAt: number;
  readonly facts: readonly Fact[];
}
