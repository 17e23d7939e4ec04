import { jaccard, wordSet } from "./knowledge-similarity.js";

/** How the pairwise scoring shares the event loop. */
export interface GroupingOptions {
  /** Longest stretch of scoring between two yields to the event loop. Default 4 ms. */
  sliceMs?: number;
  /** Stops the pass (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Clock for the slices. Default `performance.now`. */
  now?: () => number;
  /** Hears the length of each slice of scoring as it yields (e.g. a bench's longest synchronous stretch). */
  onSlice?: (ms: number) => void;
}

/** Default longest stretch of scoring between two yields to the event loop. */
export const DEFAULT_SCORING_SLICE_MS = 4;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Groups texts whose word sets are similar: each text joins the first earlier group whose first member scores at
 * least `threshold` against it (Jaccard), else starts its own. Comparing with a group's first member, not any member,
 * keeps a chain of small overlaps (A≈B, B≈C, A≉C) from merging unrelated notes.
 *
 * The scoring is O(K²) in the worst case (2 000 segments: up to 2 million comparisons). Seed 002 says it must never
 * stall the executor; here it runs in slices of at most `sliceMs` with a `setImmediate` yield between them, so timers,
 * I/O and other sessions' turns run in between (a worker thread would have to copy every text across and back for work
 * that is short in total; bounded slices keep it in place). Contract: resolves to the groups as lists of indexes into
 * `texts`, in order, singletons included; the first `await` comes before any scoring, so the caller returns at once.
 * @example await similarGroups(["uses pnpm workspaces", "pnpm workspaces are used", "the API key is in .env"], 0.5)
 */
export async function similarGroups(
  texts: readonly string[],
  threshold: number,
  options: GroupingOptions = {},
): Promise<number[][]> {
  const sliceMs = options.sliceMs ?? DEFAULT_SCORING_SLICE_MS;
  const now = options.now ?? (() => performance.now());
  const signal = options.signal;
  let sliceStart = Number.NEGATIVE_INFINITY;
  const onSlice = options.onSlice;
  const pause = async (): Promise<void> => {
    const elapsed = now() - sliceStart;
    if (elapsed < sliceMs) return;
    if (onSlice !== undefined && sliceStart !== Number.NEGATIVE_INFINITY) onSlice(elapsed);
    await yieldToEventLoop();
    signal?.throwIfAborted();
    sliceStart = now();
  };
  await pause();
  const sets: Set<string>[] = [];
  for (const text of texts) {
    sets.push(wordSet(text));
    await pause();
  }
  const groups: number[][] = [];
  for (let i = 0; i < sets.length; i++) {
    const words = sets[i] as Set<string>;
    let joined = false;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g] as number[];
      const score = jaccard(words, sets[group[0] as number] as Set<string>);
      if ((g & 63) === 63) await pause();
      if (score >= threshold) {
        group.push(i);
        joined = true;
        break;
      }
    }
    if (!joined) groups.push([i]);
    await pause();
  }
  if (onSlice !== undefined) onSlice(now() - sliceStart);
  return groups;
}
