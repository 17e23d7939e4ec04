import { answerPlanCommand } from "../plan-mode/plan-command-answer.js";
import type { CommandDefinition } from "./command-types.js";

/** /plan [approve | reject [feedback] | off]: plan mode (seed 003 step 12). */
export const planCommand: CommandDefinition = {
  name: "plan",
  usage: "/plan [approve | reject [what to change] | off]",
  description: "plan mode: the agent only reads until you approve its plan",
  adminOnly: false,
  async run({ host, sessionKey, agentId, args, message, isAdmin, trust }) {
    const sessions = host.planModeFor?.(agentId);
    if (sessions === undefined) return "Plan mode is not enabled for this agent.";
    const by = { senderId: message.sender.id, isAdmin, trust };
    // A host that knows where the session's plan waits (a cluster: its owner) answers there, checking `by` there.
    return host.plan === undefined
      ? answerPlanCommand(sessions, sessionKey, args, by)
      : host.plan(sessionKey, args, by);
  },
};
