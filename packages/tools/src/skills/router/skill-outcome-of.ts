import type { AgentEndReason } from "@chorus/core";
import type { SkillOutcome } from "./skill-arm.js";

/**
 * How a turn's end credits the skill it was hinted (seed 003 step 19): a run that ended its turn (EndTurn / ToolUse,
 * our `completed`) is a success; max turns, an error or an abort is a failure; anything else (the output cap
 * `length`, a `policy` stop, a turn that never ran) is neutral and changes no arm.
 * Contract: pure; total over every end reason.
 * @example skillOutcomeOf(result?.reason) // "success" | "failure" | "neutral"
 */
export function skillOutcomeOf(reason: AgentEndReason | undefined): SkillOutcome {
  switch (reason) {
    case "completed":
      return "success";
    case "max_turns":
    case "error":
    case "aborted":
      return "failure";
    default:
      return "neutral";
  }
}
