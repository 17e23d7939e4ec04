import type { RunAnswerBy } from "@chorus/gateway";
import type { PlanAnswerOutcome, PlanModeSessions } from "./plan-mode-sessions.js";

/** The chat's answer when someone else than the run's starters or an admin answers a plan. */
export const PLAN_ANSWER_REFUSED = "Only the person who asked for this plan or an admin can approve or reject it.";

/**
 * `/plan [approve | reject [feedback] | off]` done on the plan mode sessions that hold the session's waiting plan.
 * Switching plan mode on or off is checked where the command is typed (`mayChangeSession`); an answer is checked here,
 * where the plan waits, against who started its run. Contract: a refused answer changes nothing.
 */
export function answerPlanCommand(
  sessions: PlanModeSessions,
  sessionKey: string,
  args: readonly string[],
  by: RunAnswerBy,
): string {
  const [action, ...rest] = args;
  if (action === undefined) {
    sessions.enter(sessionKey);
    return "Plan mode is on: the agent only reads and looks around until it proposes a plan for you to approve.";
  }
  if (action === "approve") {
    return answered(
      sessions.answer(sessionKey, { approved: true }, by),
      "Plan approved: plan mode is off and the agent carries it out.",
    );
  }
  if (action === "reject") {
    const feedback = rest.join(" ").trim();
    return answered(
      sessions.answer(sessionKey, { approved: false, ...(feedback === "" ? {} : { feedback }) }, by),
      "Plan rejected: still in plan mode; the agent revises it.",
    );
  }
  if (action === "off") {
    sessions.leave(sessionKey);
    return "Plan mode is off.";
  }
  return "Usage: /plan [approve | reject [what to change] | off]";
}

function answered(outcome: PlanAnswerOutcome, text: string): string {
  if (outcome === "answered") return text;
  return outcome === "no-plan" ? "No plan is waiting for approval." : PLAN_ANSWER_REFUSED;
}
