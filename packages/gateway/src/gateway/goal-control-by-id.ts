import type { GoalCaller } from "../goals/goal-keeper.js";
import { goalOf } from "../goals/goal-record.js";
import { sessionChatOf } from "../routing/session-chat-of.js";
import { isSubagentKey } from "../session-key/session-key-lineage.js";
import { commandAtOwner } from "./command-at-owner.js";
import type { GatewayContext } from "./gateway-context.js";

/** How a goal control reads in the past tense, for the chat that is told. */
export const GOAL_CONTROL_PAST = { stop: "stopped", pause: "paused", resume: "resumed" } as const;

/**
 * `/goal stop|pause|resume <id>` from any chat (or a button under /agents): finds the session whose goal has that id
 * (or starts with it), and stops, pauses or resumes it for whoever started it and admins. The goal's chat is told
 * when the command came from elsewhere.
 * Contract: resolves with the caller's answer; an unknown or ambiguous id changes nothing and says so.
 */
export async function controlGoalById(
  ctx: GatewayContext,
  request: { readonly action: "stop" | "pause" | "resume"; readonly goalId: string },
  caller: GoalCaller,
): Promise<string> {
  const matches = (await ctx.store.listSessions()).filter((session) => {
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
  const outcome = await controlGoalAtOwner(ctx, request.action, {
    ...caller,
    sessionKey: session.key,
    agentId: session.agentId,
  });
  if (outcome.changed && session.key !== caller.sessionKey) {
    const who = caller.isAdmin ? "An administrator" : `${caller.senderId} (who started it)`;
    ctx.notices.post(
      session.key,
      sessionChatOf(session),
      `${who} ${GOAL_CONTROL_PAST[request.action]} this chat's autonomous goal.`,
    );
  }
  return outcome.text;
}

/**
 * Stops, pauses or resumes the autonomous goal of `caller.sessionKey` where its driver lives: the session's owner (a
 * cluster) or here. Contract: as `GoalKeeper.control`; unchanged, with a sentence saying so, when no owner answered.
 */
export function controlGoalAtOwner(
  ctx: GatewayContext,
  action: "stop" | "pause" | "resume",
  caller: GoalCaller,
): Promise<{ text: string; changed: boolean }> {
  return commandAtOwner(
    ctx,
    { op: "goal-control", sessionKey: caller.sessionKey, action, caller },
    () => ctx.goals.control(action, caller),
    (text) => ({ text, changed: false }),
  );
}
