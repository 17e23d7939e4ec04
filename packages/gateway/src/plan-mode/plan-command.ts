import type { CommandDefinition } from "../commands/command-types.js";

/** /plan [approve | reject [feedback] | off]: plan mode (seed 003 step 12). */
export const planCommand: CommandDefinition = {
  name: "plan",
  usage: "/plan [approve | reject [what to change] | off]",
  description: "plan mode: the agent only reads until you approve its plan",
  adminOnly: false,
  async run({ host, sessionKey, agentId, args }) {
    const sessions = host.planModeFor?.(agentId);
    if (sessions === undefined) return "Plan mode is not enabled for this agent.";
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
  },
};
