import { GOAL_USAGE, parseGoalArgs } from "../goals/goal-command-args.js";
import type { CommandContext, CommandDefinition } from "./command-types.js";

function runGoal(args: readonly string[]) {
  return ({ host, sessionKey, agentId, message, isAdmin, trust }: CommandContext): Promise<string> =>
    host.goal(parseGoalArgs(args, host.goalConfig(agentId), trust), {
      sessionKey,
      agentId,
      senderId: message.sender.id,
      isAdmin,
      trust,
    });
}

/** /goal: show, set, or run a goal on its own (`create --auto`), and stop, pause or resume that run. */
export const goalCommand: CommandDefinition = {
  name: "goal",
  usage: GOAL_USAGE,
  description: "show or set this chat's goal; run one autonomously (admins)",
  adminOnly: false,
  run: (context) => runGoal(context.args)(context),
};

/** /done: the active goal is completed. */
export const doneCommand: CommandDefinition = {
  name: "done",
  usage: "/done",
  description: "mark this chat's goal completed",
  adminOnly: false,
  run: runGoal(["done"]),
};

/** /clear: no goal any more (Idle); the conversation stays. */
export const clearCommand: CommandDefinition = {
  name: "clear",
  usage: "/clear",
  description: "drop this chat's goal (the conversation stays)",
  adminOnly: false,
  run: runGoal(["clear"]),
};
