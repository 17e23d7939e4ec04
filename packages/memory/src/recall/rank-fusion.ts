/** The RRF constant of Cormack et al. (2009): damps the head of each list. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each id scores the sum of `1 / (k + rank)` over the ranked lists it is in (rank from 1).
 * Contract: pure; returns every id of every list, best first (ties keep first-seen order).
 */
export function reciprocalRankFusion(
  lists: readonly (readonly string[])[],
  k = RRF_K,
): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, index) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1));
    });
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

/**
 * A recency factor in (1 - weight, 1]: 1 for a fact updated now, halving its recency part every `halfLifeMs`.
 * Contract: a fact from the future counts as now.
 */
export function recencyFactor(ageMs: number, halfLifeMs: number, weight: number): number {
  const decay = 0.5 ** (Math.max(0, ageMs) / halfLifeMs);
  return 1 - weight + weight * decay;
}
