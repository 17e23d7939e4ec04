/** Where a subgoal is: being worked on, or finished. */
export type SubgoalState = "active" | "completed";

/** The eviction tier of a message (seed 002): its subgoal's, or outdated when no subgoal covers it. */
export type SubgoalTier = "active" | "completed" | "outdated";

/** Relevance of each tier when scoring for eviction: active messages are never evicted. */
export const TIER_RELEVANCE: Readonly<Record<SubgoalTier, number>> = { active: 1.0, completed: 0.3, outdated: 0.1 };

/** One tracked subgoal and the transcript span `[start, end)` it covers. */
export interface Subgoal {
  readonly id: number;
  readonly description: string;
  state: SubgoalState;
  start: number;
  end: number;
}

/** How a hard compaction moved the transcript: `[0, cut)` was drained; `reinserted` of its last messages came back. */
export interface CompactionShift {
  /** Index in the old transcript where the kept tail starts. */
  readonly cut: number;
  /** Messages placed before the re-inserted ones in the new transcript (the summary). */
  readonly head: number;
  /** How many messages just before `cut` were re-inserted right after the head. */
  readonly reinserted: number;
}

/** A registry as plain data, to store and restore (e.g. in a session's settings). */
export interface SubgoalSnapshot {
  readonly subgoals: readonly Subgoal[];
  readonly nextId: number;
}

/**
 * The subgoals of one session (seed 002's `SubgoalRegistry`), by transcript index.
 * Contract: at most one subgoal is active; spans never overlap; indices are repaired by offset arithmetic only.
 */
export class SubgoalRegistry {
  #subgoals: Subgoal[] = [];
  #nextId = 1;

  /** The tracked subgoals, oldest first. */
  get subgoals(): readonly Subgoal[] {
    return this.#subgoals;
  }

  /** The registry as plain data. */
  snapshot(): SubgoalSnapshot {
    return { subgoals: this.#subgoals.map((s) => ({ ...s })), nextId: this.#nextId };
  }

  /** Replaces the contents with a snapshot; malformed data leaves the registry empty. */
  restore(snapshot: unknown): void {
    this.clear();
    const data = snapshot as Partial<SubgoalSnapshot> | undefined;
    if (!Array.isArray(data?.subgoals) || typeof data.nextId !== "number") return;
    const valid = data.subgoals.every(
      (s) =>
        typeof s?.description === "string" &&
        (s.state === "active" || s.state === "completed") &&
        Number.isInteger(s.start) &&
        Number.isInteger(s.end) &&
        Number.isInteger(s.id),
    );
    if (!valid) return;
    this.#subgoals = data.subgoals.map((s) => ({ ...s }));
    this.#nextId = data.nextId;
  }

  /** Forgets every subgoal (a new conversation). */
  clear(): void {
    this.#subgoals = [];
  }

  /** Where the last span ends: a transcript shorter than this is not the one the registry describes. */
  get coveredLength(): number {
    return this.#subgoals.at(-1)?.end ?? 0;
  }

  /** The subgoal being worked on (for /status), if any. */
  activeSubgoal(): Subgoal | undefined {
    const last = this.#subgoals.at(-1);
    return last?.state === "active" ? last : undefined;
  }

  /**
   * Starts a subgoal covering `[start, length)`; an active one is completed at `start` first (defence in depth). The
   * first subgoal covers the turn that produced it, retroactively. Contract: `start` is clamped after older spans.
   */
  start(description: string, start: number, length: number): Subgoal {
    this.extendActive(length);
    const active = this.activeSubgoal();
    const last = this.#subgoals.at(-1);
    let from = Math.max(start, last?.state === "completed" ? last.end : 0);
    if (active !== undefined) {
      from = Math.min(Math.max(start, active.start), active.end);
      this.#completeAt(active, from);
    }
    const subgoal: Subgoal = {
      id: this.#nextId++,
      description,
      state: "active",
      start: Math.min(from, length),
      end: length,
    };
    this.#subgoals.push(subgoal);
    return subgoal;
  }

  /** Completes the active subgoal (the model said `COMPLETED:`); its span ends at `length`. */
  completeActive(length: number): void {
    const active = this.activeSubgoal();
    if (active !== undefined) this.#completeAt(active, length);
  }

  /** Extends the active subgoal to the transcript's new length. O(1). */
  extendActive(length: number): void {
    const active = this.activeSubgoal();
    if (active !== undefined && length > active.end) active.end = length;
  }

  /** The tier of the message at `index`; the active subgoal runs to the end of the transcript (messages not yet
   * extended over, e.g. this turn's, are its). */
  tierOf(index: number): SubgoalTier {
    const active = this.activeSubgoal();
    if (active !== undefined && index >= active.start) return "active";
    for (let i = this.#subgoals.length - 1; i >= 0; i--) {
      const s = this.#subgoals[i] as Subgoal;
      if (index >= s.start && index < s.end) return s.state;
      if (s.end <= index) break;
    }
    return "outdated";
  }

  /**
   * Repairs the spans after a hard compaction by offset arithmetic (never by scanning messages): spans wholly drained
   * are dropped, the re-inserted part of the active span moves right after the head, the tail shifts.
   */
  rebuildAfterCompaction({ cut, head, reinserted }: CompactionShift): void {
    const shift = head + reinserted - cut;
    const kept: Subgoal[] = [];
    for (const s of this.#subgoals) {
      if (s.state === "active" && s.start < cut && reinserted > 0) {
        s.start = head + Math.max(0, reinserted - (cut - s.start));
        s.end = Math.max(s.end + shift, s.start);
        kept.push(s);
      } else if (s.end > cut) {
        s.start = Math.max(s.start, cut) + shift;
        s.end += shift;
        kept.push(s);
      } else if (s.state === "active") {
        // Drained and empty: it stays the current subgoal, covering what comes next.
        s.start = head + reinserted;
        s.end = s.start + Math.max(0, s.end - cut);
        kept.push(s);
      }
    }
    this.#subgoals = kept;
  }

  #completeAt(subgoal: Subgoal, end: number): void {
    subgoal.state = "completed";
    subgoal.end = Math.max(subgoal.start, end);
  }
}
