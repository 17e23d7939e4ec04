import type { RestoredPlanSource } from "@chorus/core";
import type { PlanModeSessions } from "./plan-mode-sessions.js";
import { PROPOSE_PLAN_TOOL } from "./propose-plan-tool.js";

/**
 * The plan a session in plan mode proposed last, for context restoration after a compaction (seed 004): with where it
 * stands (waiting for the user, or rejected with their feedback). Contract: this session's only; nothing outside
 * plan mode or before a plan was proposed.
 */
export function planRestoration(sessions: PlanModeSessions, sessionKey: string): RestoredPlanSource {
  return () => {
    const plan = sessions.proposedPlan(sessionKey);
    if (plan === undefined) return undefined;
    const state =
      plan.state === "waiting"
        ? `You proposed it with ${PROPOSE_PLAN_TOOL}; the user has not answered yet.`
        : `You proposed it with ${PROPOSE_PLAN_TOOL}; the user rejected it${plan.feedback ? `: ${plan.feedback}` : "."} Plan mode is still on: revise it and propose it again.`;
    return `${state}\n\n${plan.text}`;
  };
}
