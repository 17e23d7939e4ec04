import { addRestorationSources } from "@chorus/core";
import type { GatewayExtension, SessionChats } from "@chorus/gateway";
import { answerPlanCommand } from "./plan-command-answer.js";
import { planModeGate } from "./plan-mode-gate.js";
import { PLAN_MODE_COMMAND_PERMISSIONS } from "./plan-mode-permissions.js";
import { planModeReminder } from "./plan-mode-reminder.js";
import { PlanModeSessions } from "./plan-mode-sessions.js";
import { planRestoration } from "./plan-restoration.js";
import { proposePlanTool } from "./propose-plan-tool.js";

/** How to answer a plan where the chat has no buttons (WebChat, a terminal): by typing. */
const TYPED_ANSWER =
  "To approve it, send `/plan approve`. To reject it, send `/plan reject <what to change>` (the agent then proposes a new plan).";

/**
 * Plan mode (seed 003 step 12) as a gateway extension, for the agents named: `/plan` limits a session to information
 * tools until the agent's `propose_plan` is approved (buttons where the platform has them, else `/plan approve` /
 * `/plan reject <feedback>`). Switching it on or off is a change to the chat's session (`plan`: admins in a group, or
 * members it grants); an answer comes from who started the run or an admin and lowers the run to the answerer's tier.
 * In a cluster `/plan` runs at the session's owner, where its plan waits. While a session is in plan mode its model
 * calls carry the plan-mode reminder (seed 004: every 5 prompts, every 5th one full) and a compaction brings back the
 * plan it proposed last; leaving plan mode is said once. Contract: other agents answer "not enabled";
 * plan mode lives in memory and ends with a restart.
 * @example new Gateway({ ...options, extensions: [planModeExtension({ agents: ["main"] })] });
 */
export function planModeExtension(options: { readonly agents: readonly string[] }): GatewayExtension {
  const enabled = new Set(options.agents);
  let chats: SessionChats | undefined;
  const sessions = new PlanModeSessions(async (sessionKey, text, buttons) => {
    if (chats === undefined) return;
    if (await chats.hasButtons(sessionKey)) {
      await chats.post(
        sessionKey,
        `${text}\n\nApprove it, or reject it with \`/plan reject <what to change>\`.`,
        buttons,
      );
    } else {
      await chats.post(sessionKey, `${text}\n\n${TYPED_ANSWER}`);
    }
  });
  return {
    name: "plan-mode",
    commandPermissions: PLAN_MODE_COMMAND_PERMISSIONS,
    commands: [
      {
        name: "plan",
        usage: "/plan [approve | reject [what to change] | off]",
        description: "plan mode: the agent only reads until you approve its plan",
        adminOnly: false,
        // `/plan` enters plan mode, `/plan off` leaves it; approve/reject answer a waiting plan (checked where it waits).
        sessionChange: (args) => {
          const first = args[0]?.toLowerCase();
          return first === "approve" || first === "reject" ? undefined : "plan";
        },
        atOwner: true,
        async run({ agentId, sessionKey, args, message, isAdmin, trust }) {
          if (!enabled.has(agentId)) return "Plan mode is not enabled for this agent.";
          return answerPlanCommand(sessions, sessionKey, args, { senderId: message.sender.id, isAdmin, trust });
        },
      },
    ],
    toolsFor: (agentId) => (enabled.has(agentId) ? [proposePlanTool(sessions)] : []),
    policiesFor: (agentId) => (enabled.has(agentId) ? [planModeGate(sessions)] : []),
    // Each session's own reminders and plan: built with its key, so one session never sees another's plan mode.
    sessionAgent: ({ sessionKey, agentId }) => {
      if (!enabled.has(agentId)) return undefined;
      const plan = planRestoration(sessions, sessionKey);
      return {
        reminders: [planModeReminder(sessions, sessionKey)],
        context: (context) => addRestorationSources(context, { plan }),
      };
    },
    start: (context) => {
      chats = context.chats;
    },
    stop: () => {
      chats = undefined;
    },
  };
}
