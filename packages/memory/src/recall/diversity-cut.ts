/** A ranked candidate for the diversity cut. */
export interface DiversityCandidate {
  readonly id: string;
  readonly score: number;
}

/**
 * Maximal marginal relevance: picks up to `k` candidates, each time the one with the best
 * `lambda * relevance - (1 - lambda) * (its highest similarity to one already picked)`, relevance being the score
 * over the best score. Candidates at least `duplicateAt` similar to a picked one are never picked.
 * Contract: pure; the first pick is the best-scored candidate.
 */
export function maximalMarginalRelevance<T extends DiversityCandidate>(
  candidates: readonly T[],
  k: number,
  similarity: (a: T, b: T) => number,
  lambda = 0.7,
  duplicateAt = 0.92,
): T[] {
  const best = Math.max(...candidates.map((c) => c.score), Number.MIN_VALUE);
  const left = [...candidates];
  const picked: T[] = [];
  while (picked.length < k && left.length > 0) {
    let choice = -1;
    let choiceValue = Number.NEGATIVE_INFINITY;
    for (const [index, candidate] of left.entries()) {
      const closest = picked.reduce((max, other) => Math.max(max, similarity(candidate, other)), 0);
      if (closest >= duplicateAt) continue;
      const value = lambda * (candidate.score / best) - (1 - lambda) * closest;
      if (value > choiceValue) {
        choiceValue = value;
        choice = index;
      }
    }
    if (choice === -1) break;
    picked.push(...left.splice(choice, 1));
  }
  return picked;
}
