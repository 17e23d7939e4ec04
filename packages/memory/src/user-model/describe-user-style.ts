import type { StyleObservation } from "./style-observation.js";

/** Fewer observations than this say nothing yet: one message is no habit. */
export const MIN_STYLE_OBSERVATIONS = 3;

/** Only this many of the newest observations count: a user's style may change. */
const WINDOW = 20;

/**
 * The user model as one short line for the system prompt (seed 003: adapt tone and detail level), from a user's
 * observations, newest first: "This user prefers short, informal answers; writes in German." Contract: pure;
 * undefined with fewer than `MIN_STYLE_OBSERVATIONS`, or when nothing is clear from them (a majority decides).
 * @example describeUserStyle(await store.userObservations(scope).then((page) => page.observations.map((o) => o.style)))
 */
export function describeUserStyle(newestFirst: readonly StyleObservation[]): string | undefined {
  const seen = newestFirst.slice(0, WINDOW);
  if (seen.length < MIN_STYLE_OBSERVATIONS) return undefined;
  const most = (count: number) => count * 2 > seen.length;
  const lengths = seen.map((o) => o.chars).sort((a, b) => a - b);
  const median = lengths[Math.floor(lengths.length / 2)] ?? 0;
  const detail = median <= 80 ? "short" : median >= 400 ? "detailed" : undefined;
  const informal = seen.filter((o) => o.formality === "informal").length;
  const formal = seen.filter((o) => o.formality === "formal").length;
  const tone = most(informal) ? "informal" : most(formal) ? "formal" : undefined;
  const adjectives = [detail, tone].filter((word) => word !== undefined);
  const clauses = [
    adjectives.length === 0 ? undefined : `prefers ${adjectives.join(", ")} answers`,
    languageOf(seen, most),
    most(seen.filter((o) => o.emoji).length) ? "uses emoji" : undefined,
    seen.filter((o) => o.code).length * 3 >= seen.length ? "often shares code" : undefined,
  ].filter((clause) => clause !== undefined);
  return clauses.length === 0 ? undefined : `This user ${clauses.join("; ")}.`;
}

function languageOf(seen: readonly StyleObservation[], most: (count: number) => boolean): string | undefined {
  const counts = new Map<string, number>();
  for (const o of seen) if (o.language !== undefined) counts.set(o.language, (counts.get(o.language) ?? 0) + 1);
  const [top] = [...counts].sort((a, b) => b[1] - a[1]);
  return top !== undefined && most(top[1]) ? `writes in ${top[0]}` : undefined;
}
