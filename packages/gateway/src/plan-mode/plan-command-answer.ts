import type { PlanModeSessions } from "./plan-mode-sessions.js";

/** `/plan [approve | reject [feedback] | off]` done on the plan mode sessions that hold the session's waiting plan. */
export function answerPlanCommand(sessions: PlanModeSessions, sessionKey: string, args: readonly string[]): string {
  const [action, ...rest] = args;
  if (action === undefined) {
    sessions.enter(sessionKey);
    return "Plan mode is on: the agent only reads and looks around until it proposes a plan for you to approve.";
  }
  if (action === "approve") {
    return sessions.answer(sessionKey, { approved: true })
      ? "Plan approved: plan mode is off and the agent carries it out."
      : "No plan is waiting for approval.";
  }
  if (action === "reject") {
    const feedback = rest.join(" ").trim();
    return sessions.answer(sessionKey, { approved: false, ...(feedback === "" ? {} : { feedback }) })
      ? "Plan rejected: still in plan mode; the agent revises it."
      : "No plan is waiting for approval.";
  }
  if (action === "off") {
    sessions.leave(sessionKey);
    return "Plan mode is off.";
  }
  return "Usage: /plan [approve | reject [what to change] | off]";
}
