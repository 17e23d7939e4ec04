import type { RunAnswerBy } from "@chorus/gateway";
import type { PlanAnswerOutcome, PlanDecision, PlanModeSessions } from "./plan-mode-sessions.js";
import { PROPOSE_PLAN_TOOL } from "./propose-plan-tool.js";

/** The chat's answer when someone else than the run's starters or an admin answers a plan. */
export const PLAN_ANSWER_REFUSED = "Only the person who asked for this plan or an admin can approve or reject it.";

/**
 * Starts a turn of the session on `text` (a message to the model, at the answerer's tier): how an answer reaches the
 * model when the run that proposed the plan is gone (a restart, a takeover, `/stop`).
 */
export type ContinueWithAnswer = (sessionKey: string, text: string, by: RunAnswerBy) => Promise<void>;

/**
 * `/plan [approve | reject [feedback] | off]` done on the plan mode sessions that hold the session's plan, at the
 * instance where its turns run. Switching plan mode on or off is checked where the command is typed
 * (`mayChangeSession`); an answer is checked here, where the plan waits, against who started its run. Contract: a
 * refused answer changes nothing; the answer resolves once the change is stored; an answer to a plan whose run is
 * gone starts a turn that hears it (`continueWith`).
 */
export async function answerPlanCommand(
  sessions: PlanModeSessions,
  sessionKey: string,
  args: readonly string[],
  by: RunAnswerBy,
  continueWith: ContinueWithAnswer,
): Promise<string> {
  await sessions.load(sessionKey);
  const [action, ...rest] = args;
  if (action === "approve") return answer(sessions, sessionKey, { approved: true }, by, continueWith);
  if (action === "reject") {
    const feedback = rest.join(" ").trim();
    const decision = { approved: false as const, ...(feedback === "" ? {} : { feedback }) };
    return answer(sessions, sessionKey, decision, by, continueWith);
  }
  if (action === undefined) {
    sessions.enter(sessionKey);
    await sessions.settled(sessionKey);
    return "Plan mode is on: the agent only reads and looks around until it proposes a plan for you to approve.";
  }
  if (action === "off") {
    // A run that waited for a plan hears the change once it is stored, like an answer: the chat hears it first.
    if (!sessions.leave(sessionKey)) await sessions.settled(sessionKey);
    return "Plan mode is off.";
  }
  return "Usage: /plan [approve | reject [what to change] | off]";
}

async function answer(
  sessions: PlanModeSessions,
  sessionKey: string,
  decision: PlanDecision,
  by: RunAnswerBy,
  continueWith: ContinueWithAnswer,
): Promise<string> {
  const plan = sessions.proposedPlan(sessionKey)?.text ?? "";
  const outcome: PlanAnswerOutcome = sessions.answer(sessionKey, decision, by);
  if (outcome === "no-plan") return "No plan is waiting for approval.";
  if (outcome === "not-allowed") return PLAN_ANSWER_REFUSED;
  if (outcome === "answered-later") {
    await sessions.settled(sessionKey);
    await continueWith(sessionKey, laterAnswerText(decision, plan), by);
  }
  // "answered": the waiting run goes on once the answer is stored; the chat hears of it first.
  return decision.approved
    ? "Plan approved: plan mode is off and the agent carries it out."
    : "Plan rejected: still in plan mode; the agent revises it.";
}

/** What the model reads when the answer to its plan comes after the run that proposed it ended. */
function laterAnswerText(decision: PlanDecision, plan: string): string {
  if (decision.approved) {
    return `The user approved the plan you proposed with ${PROPOSE_PLAN_TOOL} earlier. Plan mode is off: carry the plan out now.\n\n${plan}`;
  }
  const why =
    "feedback" in decision && decision.feedback !== undefined ? `: ${decision.feedback}` : " without saying why";
  return `The user rejected the plan you proposed with ${PROPOSE_PLAN_TOOL} earlier${why}. You are still in plan mode: revise the plan (ask if unclear) and propose it again.`;
}
