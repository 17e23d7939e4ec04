import type { TurnCommitted } from "@chorus/gateway";
import { type SkillOutcome, skillOutcomeOf } from "@chorus/tools";

/** How a turn counts for its signature's streak: a success adds one, a failure resets it, neutral leaves it. */
export type TurnOutcome = SkillOutcome;

/**
 * A turn's outcome from how its run ended (seed 003 steps 19–20, the same rule that credits the skill router's arms):
 * ending on its own is a success; running out of turns, an error or an abort is a failure; a turn that never started,
 * one cut at the output limit or halted by a policy is neutral: it says nothing about the task. Contract: pure.
 */
export function turnOutcomeOf(turn: Pick<TurnCommitted, "outcome" | "result">): TurnOutcome {
  return turn.result === undefined ? "neutral" : skillOutcomeOf(turn.result.reason);
}
