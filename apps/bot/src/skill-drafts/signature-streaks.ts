import type { TurnOutcome } from "./turn-outcome.js";

/** Consecutive successes that draft a skill (seed 003 step 20: three in a row on one signature). */
export const SUCCESSES_TO_DRAFT = 3;
/** Signatures a session keeps a streak for; the least recently seen is dropped past this (a chat has few tasks). */
const MAX_SIGNATURES = 64;

/** Each signature's run of consecutive successful turns (only the non-zero ones are kept). */
export type SignatureStreaks = Readonly<Record<string, number>>;

/** The streaks after one turn, and whether this turn's signature reached `SUCCESSES_TO_DRAFT`. */
export interface StreakStep {
  readonly streaks: SignatureStreaks;
  readonly draft: boolean;
}

/**
 * The bucketer's step (seed 003 step 20): a success adds one to its signature's streak, and the third in a row asks
 * for a draft and starts the streak afresh; a failure resets that signature's streak (the others keep theirs); a
 * neutral turn changes nothing. Contract: pure; an empty signature changes nothing.
 * @example nextStreaks({ "deploy-kubernetes-staging": 2 }, "deploy-kubernetes-staging", "success") // { streaks: {}, draft: true }
 */
export function nextStreaks(streaks: SignatureStreaks, signature: string, outcome: TurnOutcome): StreakStep {
  if (signature === "" || outcome === "neutral") return { streaks, draft: false };
  const { [signature]: current = 0, ...others } = streaks;
  if (outcome === "failure") return { streaks: others, draft: false };
  const count = current + 1;
  if (count >= SUCCESSES_TO_DRAFT) return { streaks: others, draft: true };
  // Re-inserted last: the oldest entries are the least recently seen, dropped first past the cap.
  const kept = Object.entries(others).slice(-(MAX_SIGNATURES - 1));
  return { streaks: { ...Object.fromEntries(kept), [signature]: count }, draft: false };
}

/** The streaks kept in a session's settings; anything malformed reads as none. Contract: pure, never throws. */
export function storedStreaksOf(value: unknown): SignatureStreaks {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const streaks = (value as { streaks?: unknown }).streaks;
  if (typeof streaks !== "object" || streaks === null || Array.isArray(streaks)) return {};
  return Object.fromEntries(
    Object.entries(streaks).filter(
      (entry): entry is [string, number] => typeof entry[1] === "number" && Number.isInteger(entry[1]) && entry[1] > 0,
    ),
  );
}
