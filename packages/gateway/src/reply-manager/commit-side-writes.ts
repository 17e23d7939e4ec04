import type { TurnSideWrites } from "@chorus/store";

/**
 * Writes another component joins to one turn commit (long-term memory's facts), and how it hears the outcome.
 * Contract: exactly one of `committed` or `failed` is called per commit that carried them.
 */
export interface CommitSideWrites {
  readonly writes: TurnSideWrites;
  /** The commit is durable; `sideWritten` says whether `writes` ran inside it (else the owner writes them now). */
  committed(sideWritten: boolean): void;
  /** The commit failed: nothing of it was written (its messages go into the run's next commit). */
  failed(): void;
}
