/** Turns (agent runs) between two auto-consolidation passes unless configured (seed 002). */
export const DEFAULT_AUTO_CONSOLIDATE_MIN_WINDOW = 4;

/** Token-set Jaccard similarity at or above which two closed segments' knowledge is merged unless configured. */
export const DEFAULT_CONSOLIDATION_SIMILARITY = 0.5;

/** Characters a `complete_focus` knowledge text may have unless configured (≈ 2 000 tokens). */
export const DEFAULT_MAX_KNOWLEDGE_CHARS = 8_000;

/** Characters a `start_focus` scope may have. */
export const MAX_SCOPE_CHARS = 200;

/** Settings of the Focus strategy (seed 002 "Focus Strategy Auto-Consolidation"). */
export interface FocusSettings {
  /**
   * Turns (agent runs that ended) after which closed segments with similar knowledge are merged. Default 4. `0` is
   * refused: it would consolidate after every turn.
   */
  autoConsolidateMinWindow?: number;
  /** Jaccard similarity (0 < s ≤ 1) of two knowledge texts' word sets at which they merge. Default 0.5. */
  similarityThreshold?: number;
  /** Longest knowledge text `complete_focus` accepts, and the cap of a merged one. Default 8 000 characters. */
  maxKnowledgeChars?: number;
}

/** A Focus setting that cannot be used; `setting` names it (e.g. "autoConsolidateMinWindow"). */
export class FocusConfigError extends Error {
  override readonly name = "FocusConfigError";
  constructor(
    readonly setting: keyof FocusSettings,
    problem: string,
  ) {
    super(`focus.${setting} ${problem}`);
  }
}

/** The settings with every default filled in. */
export type ResolvedFocusSettings = Required<FocusSettings>;

/**
 * Checks the settings and fills in the defaults. Contract: throws FocusConfigError naming the setting for a window
 * that is not a whole number of at least 1 (so `0` is refused at start-up, as seed 002 requires), a threshold outside
 * (0, 1] or a knowledge cap below 100 characters; never changes its input.
 * @example resolveFocusSettings({ autoConsolidateMinWindow: 6 }) // { autoConsolidateMinWindow: 6, similarityThreshold: 0.5, … }
 */
export function resolveFocusSettings(settings: FocusSettings = {}): ResolvedFocusSettings {
  const window = settings.autoConsolidateMinWindow ?? DEFAULT_AUTO_CONSOLIDATE_MIN_WINDOW;
  if (!Number.isInteger(window) || window < 1) {
    throw new FocusConfigError(
      "autoConsolidateMinWindow",
      `must be a whole number of at least 1 (turns between consolidations), got ${String(window)}; ` +
        "0 would merge segments after every turn — turn the focus strategy off instead",
    );
  }
  const threshold = settings.similarityThreshold ?? DEFAULT_CONSOLIDATION_SIMILARITY;
  if (!(threshold > 0 && threshold <= 1)) {
    throw new FocusConfigError("similarityThreshold", `must be above 0 and at most 1, got ${String(threshold)}`);
  }
  const maxKnowledgeChars = settings.maxKnowledgeChars ?? DEFAULT_MAX_KNOWLEDGE_CHARS;
  if (!Number.isInteger(maxKnowledgeChars) || maxKnowledgeChars < 100) {
    throw new FocusConfigError("maxKnowledgeChars", `must be a whole number of at least 100, got ${maxKnowledgeChars}`);
  }
  return { autoConsolidateMinWindow: window, similarityThreshold: threshold, maxKnowledgeChars };
}
