import type { ExtensionStartContext } from "@chorus/gateway";
import { isSubagentKey } from "@chorus/gateway";
import type { GoalCaller, GoalKeeper } from "./goal-keeper.js";
import { goalOf } from "./goal-record.js";

/** How a goal control reads in the past tense, for the chat that is told. */
export const GOAL_CONTROL_PAST = { stop: "stopped", pause: "paused", resume: "resumed" } as const;

/** A goal control, as it crosses to the session's owner (`answerAtOwner`). */
export interface GoalControlCall {
  readonly action: "stop" | "pause" | "resume";
  readonly caller: GoalCaller;
}

/** The `atOwner` call name of a goal control. */
export const GOAL_CONTROL_CALL = "goal-control";

/** Answers a goal control at the session's owner, where its driver lives. */
export function answerGoalControl(
  goals: GoalKeeper,
  call: GoalControlCall,
): Promise<{ text: string; changed: boolean }> {
  return goals.control(call.action, call.caller);
}

/**
 * Stops, pauses or resumes the autonomous goal of `caller.sessionKey` where its driver lives: the session's owner (a
 * cluster) or here. Contract: as `GoalKeeper.control`; unchanged, with a sentence saying so, when no owner answered.
 */
export async function controlGoalAtOwner(
  context: ExtensionStartContext,
  action: "stop" | "pause" | "resume",
  caller: GoalCaller,
): Promise<{ text: string; changed: boolean }> {
  const payload: GoalControlCall = { action, caller };
  const outcome = await context.atOwner(caller.sessionKey, { name: GOAL_CONTROL_CALL, payload });
  return "told" in outcome
    ? { text: outcome.told, changed: false }
    : (outcome.answer as { text: string; changed: boolean });
}

/**
 * `/goal stop|pause|resume <id>` from any chat (or a button under /agents): finds the session whose goal has that id
 * (or starts with it), and stops, pauses or resumes it for whoever started it and admins. The goal's chat is told
 * when the command came from elsewhere.
 * Contract: resolves with the caller's answer; an unknown or ambiguous id changes nothing and says so.
 */
export async function controlGoalById(
  context: ExtensionStartContext,
  request: { readonly action: "stop" | "pause" | "resume"; readonly goalId: string },
  caller: GoalCaller,
): Promise<string> {
  const matches = (await context.store.listSessions()).filter((session) => {
    if (isSubagentKey(session.key)) return false;
    const goal = goalOf(session.settings);
    return goal?.auto !== undefined && goal.id.startsWith(request.goalId);
  });
  const [session] = matches;
  if (session === undefined) {
    return `No autonomous goal with id ${request.goalId}. /agents lists them (admins), /goal shows this chat's.`;
  }
  if (matches.length > 1) {
    return `${matches.length} autonomous goals have ids starting with ${request.goalId}; give the whole id.`;
  }
  const outcome = await controlGoalAtOwner(context, request.action, {
    ...caller,
    sessionKey: session.key,
    agentId: session.agentId,
  });
  if (outcome.changed && session.key !== caller.sessionKey) {
    const who = caller.isAdmin ? "An administrator" : `${caller.senderId} (who started it)`;
    await context.chats.post(session.key, `${who} ${GOAL_CONTROL_PAST[request.action]} this chat's autonomous goal.`);
  }
  return outcome.text;
}

/** `/agents goal stop|pause|resume <sessionKey>`: an admin controls any session's goal; its chat is told. */
export async function controlGoalOfSession(
  context: ExtensionStartContext,
  sessionKey: string,
  action: "stop" | "pause" | "resume",
  adminId: string,
): Promise<string> {
  const session = await context.store.getSession(sessionKey);
  if (session === undefined || isSubagentKey(sessionKey)) return `No session "${sessionKey}".`;
  const caller = { sessionKey, agentId: session.agentId, senderId: adminId, isAdmin: true, trust: "owner" as const };
  const outcome = await controlGoalAtOwner(context, action, caller);
  if (outcome.changed) {
    await context.chats.post(sessionKey, `An administrator ${GOAL_CONTROL_PAST[action]} this chat's autonomous goal.`);
  }
  return outcome.text;
}
