import { z } from "zod";

/** The focus the agent opened with `start_focus` and has not completed yet. */
export interface OpenFocus {
  readonly scope: string;
  /** Id of the `start_focus` tool call: where the segment's raw messages begin. */
  readonly startCallId: string;
}

/** A completed focus: its raw messages (start call to complete result) are replaced in the context by `knowledge`. */
export interface FocusSegment {
  readonly id: number;
  readonly scope: string;
  /** The distilled knowledge; empty once consolidation merged it into another segment. */
  readonly knowledge: string;
  readonly startCallId: string;
  /** Id of the `complete_focus` tool call: its results end the segment. */
  readonly endCallId: string;
  /** Set when consolidation merged this segment into segment `mergedInto`: its raw messages go without a trace. */
  readonly mergedInto?: number;
}

/** The JSON form of a FocusState (kept with a session, e.g. in its settings). */
export interface FocusSnapshot {
  readonly version: 1;
  readonly nextId: number;
  readonly open?: OpenFocus;
  readonly closed: readonly FocusSegment[];
  readonly turnsSinceConsolidation: number;
}

/** What a focus tool was asked that the state refuses; the message is written for the model. */
export class FocusToolError extends Error {
  override readonly name = "FocusToolError";
}

/** A stored focus snapshot that is not one (wrong shape or version). */
export class FocusStateError extends Error {
  override readonly name = "FocusStateError";
}

/** One merge of a consolidation pass: `absorbed` segments' knowledge now lives in `keep`'s. */
export interface FocusMerge {
  readonly keep: number;
  readonly absorbed: readonly number[];
  readonly scope: string;
  readonly knowledge: string;
}

const segmentSchema = z.object({
  id: z.number().int().nonnegative(),
  scope: z.string(),
  knowledge: z.string(),
  startCallId: z.string(),
  endCallId: z.string(),
  mergedInto: z.number().int().nonnegative().optional(),
});

const snapshotSchema = z.object({
  version: z.literal(1),
  nextId: z.number().int().nonnegative(),
  open: z.object({ scope: z.string(), startCallId: z.string() }).optional(),
  closed: z.array(segmentSchema),
  turnsSinceConsolidation: z.number().int().nonnegative(),
});

/**
 * The focus segments of one session (seed 002's Focus strategy, after "Active Context Compression"): at most one open
 * segment, the closed ones with their knowledge, and the turns since the last auto-consolidation. Plain state — the
 * tools, the context reduction and the consolidation read and change it through these methods.
 * Contract: `start` / `complete` throw FocusToolError (a second open, a close with none open) and change nothing
 * then; `revision` grows with every change; `snapshot()` is plain JSON that `FocusState.restore` reads back.
 * @example
 * const state = FocusState.restore(session.settings.focus); // or new FocusState()
 * state.start("find the config loader", "call_1");
 * state.complete("Config is read from ./chorus.yaml by loadConfig()", "call_7");
 * save(state.snapshot());
 */
export class FocusState {
  #open: OpenFocus | undefined;
  #closed: FocusSegment[] = [];
  #nextId = 1;
  #turns = 0;
  #revision = 0;
  #segmentsRevision = 0;

  /** Reads a snapshot back. Contract: throws FocusStateError for anything that is not a version-1 snapshot. */
  static restore(value: unknown): FocusState {
    const parsed = snapshotSchema.safeParse(value);
    if (!parsed.success) {
      throw new FocusStateError(`not a focus snapshot: ${parsed.error.issues[0]?.message ?? "bad shape"}`);
    }
    const state = new FocusState();
    const s = parsed.data;
    state.#open = s.open;
    state.#closed = s.closed.map(({ mergedInto, ...segment }) =>
      mergedInto === undefined ? segment : { ...segment, mergedInto },
    );
    state.#nextId = Math.max(s.nextId, ...s.closed.map((segment) => segment.id + 1));
    state.#turns = s.turnsSinceConsolidation;
    return state;
  }

  get open(): OpenFocus | undefined {
    return this.#open;
  }

  /** Every closed segment in the order they were closed, merged ones included. */
  get closed(): readonly FocusSegment[] {
    return this.#closed;
  }

  /** The closed segments whose knowledge is in the context (not merged into another). */
  live(): FocusSegment[] {
    return this.#closed.filter((segment) => segment.mergedInto === undefined);
  }

  get turnsSinceConsolidation(): number {
    return this.#turns;
  }

  /** Grows with every change (a reading taken before a change is stale after it). */
  get revision(): number {
    return this.#revision;
  }

  /** Grows with every change of the closed segments (what the context reduction depends on). */
  get segmentsRevision(): number {
    return this.#segmentsRevision;
  }

  /** Opens a segment at the `start_focus` call `callId`. */
  start(scope: string, callId: string): OpenFocus {
    const open = this.#open;
    if (open !== undefined) {
      throw new FocusToolError(
        `A focus is already open ("${open.scope}"). Focus segments do not nest: call complete_focus first.`,
      );
    }
    this.#open = { scope, startCallId: callId };
    this.#revision++;
    return this.#open;
  }

  /** Closes the open segment at the `complete_focus` call `callId` with its knowledge. */
  complete(knowledge: string, callId: string): FocusSegment {
    const open = this.#open;
    if (open === undefined) throw new FocusToolError("No focus is open: call start_focus before complete_focus.");
    const segment: FocusSegment = {
      id: this.#nextId++,
      scope: open.scope,
      knowledge,
      startCallId: open.startCallId,
      endCallId: callId,
    };
    this.#closed.push(segment);
    this.#open = undefined;
    this.#revision++;
    this.#segmentsRevision++;
    return segment;
  }

  /** Counts a finished turn toward the next auto-consolidation. */
  turnEnded(): void {
    this.#turns++;
    this.#revision++;
  }

  /** Whether `minWindow` turns passed since the last consolidation and there are two segments that could merge. */
  shouldAutoConsolidate(minWindow: number): boolean {
    return this.#turns >= minWindow && this.live().length >= 2;
  }

  /** A consolidation pass starts: the window counts again from here. */
  consolidationStarted(): void {
    this.#turns = 0;
    this.#revision++;
  }

  /**
   * Applies a consolidation's merges. A merge naming a segment that is no longer live (merged or forgotten meanwhile)
   * is skipped. Returns how many segments were absorbed.
   */
  applyMerges(merges: readonly FocusMerge[]): number {
    let absorbed = 0;
    for (const merge of merges) {
      const ids = [merge.keep, ...merge.absorbed];
      const indexes = ids.map((id) => this.#closed.findIndex((s) => s.id === id && s.mergedInto === undefined));
      if (indexes.some((index) => index < 0)) continue;
      const [keepIndex, ...absorbedIndexes] = indexes as [number, ...number[]];
      const kept = this.#closed[keepIndex] as FocusSegment;
      this.#closed[keepIndex] = { ...kept, scope: merge.scope, knowledge: merge.knowledge };
      for (const index of absorbedIndexes) {
        this.#closed[index] = { ...(this.#closed[index] as FocusSegment), knowledge: "", mergedInto: merge.keep };
        absorbed++;
      }
    }
    if (absorbed > 0) {
      this.#revision++;
      this.#segmentsRevision++;
    }
    return absorbed;
  }

  /** Drops closed segments that left the transcript for good (e.g. a summarising compaction covered them). */
  forget(ids: ReadonlySet<number>): void {
    if (ids.size === 0) return;
    this.#closed = this.#closed.filter((segment) => !ids.has(segment.id));
    this.#revision++;
    this.#segmentsRevision++;
  }

  /** Forgets everything (a new conversation). */
  clear(): void {
    this.#open = undefined;
    this.#closed = [];
    this.#turns = 0;
    this.#revision++;
    this.#segmentsRevision++;
  }

  snapshot(): FocusSnapshot {
    const base = { version: 1 as const, nextId: this.#nextId, closed: this.#closed.map((s) => ({ ...s })) };
    const turns = { turnsSinceConsolidation: this.#turns };
    return this.#open === undefined ? { ...base, ...turns } : { ...base, open: { ...this.#open }, ...turns };
  }
}
