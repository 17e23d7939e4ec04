import { addRestorationSources } from "@chorus/core";
import type { ExtensionStartContext, GatewayExtension, RunAnswerBy } from "@chorus/gateway";
import { answerPlanCommand } from "./plan-command-answer.js";
import { planModeGate } from "./plan-mode-gate.js";
import { PLAN_MODE_COMMAND_PERMISSIONS } from "./plan-mode-permissions.js";
import { planModeReminder } from "./plan-mode-reminder.js";
import { InformationTools, planModeStreamFn } from "./plan-mode-request.js";
import { PlanModeSessions } from "./plan-mode-sessions.js";
import { planRestoration } from "./plan-restoration.js";
import { proposePlanTool } from "./propose-plan-tool.js";
import { readPlanMode, storedPlanModes } from "./stored-plan-mode.js";

/** How to answer a plan where the chat has no buttons (WebChat, a terminal): by typing. */
const TYPED_ANSWER =
  "To approve it, send `/plan approve`. To reject it, send `/plan reject <what to change>` (the agent then proposes a new plan).";

/**
 * Plan mode (seed 003 steps 12 and 14) as a gateway extension, for the agents named: `/plan` limits a session to
 * information tools until the agent's `propose_plan` is approved (buttons where the platform has them, else
 * `/plan approve` / `/plan reject <feedback>`). While it is on, each model call of the session's turns says so in its
 * system prompt and offers only information tools and `propose_plan` (the call-time gate refuses anything else), and
 * carries the plan-mode reminder (seed 004). Plan mode and the plan are kept in the session's settings: they survive a
 * restart and move with the session to another owner, where the plan is still answerable (the answer then starts a
 * turn); `/new` drops them. Switching it on or off is a change to the chat's session (`plan`: admins in a group, or
 * members it grants); an answer comes from who started the run or an admin and lowers the run to the answerer's tier.
 * In a cluster `/plan` runs at the session's owner. A compaction brings back the plan proposed last.
 * Contract: other agents answer "not enabled"; outside plan mode their requests are exactly the agent's own.
 * @example new Gateway({ ...options, extensions: [planModeExtension({ agents: ["main"] })] });
 */
export function planModeExtension(options: { readonly agents: readonly string[] }): GatewayExtension {
  const enabled = new Set(options.agents);
  let started: ExtensionStartContext | undefined;
  const unreadable = (error: Error): void => started?.logger.warn({ error: error.message }, "plan mode: reset");
  const info = new InformationTools();
  const sessions = new PlanModeSessions(
    async (sessionKey, text, buttons) => {
      const chats = started?.chats;
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
    },
    storedPlanModes(() => started?.store, unreadable),
  );
  // The run that proposed the plan is gone: its answer reaches the model as a message of the answerer's, in a turn.
  const continueWith = async (sessionKey: string, text: string, by: RunAnswerBy): Promise<void> => {
    const context = started;
    if (context === undefined) return;
    const message = { role: "user" as const, content: text, timestamp: context.now() };
    const { firstSeq } = await context.store.appendMessages(sessionKey, [message]);
    const session = await context.store.getSession(sessionKey);
    if (session === undefined) return;
    context.sessions.accept(session, {
      message,
      seq: firstSeq,
      trust: by.trust,
      source: "user",
      senderId: by.senderId,
    });
  };
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
          const by = { senderId: message.sender.id, isAdmin, trust };
          return answerPlanCommand(sessions, sessionKey, args, by, continueWith);
        },
      },
    ],
    toolsFor: (agentId) => (enabled.has(agentId) ? [proposePlanTool(sessions)] : []),
    policiesFor: (agentId) => (enabled.has(agentId) ? [planModeGate(sessions)] : []),
    // Learns which tools are information tools; the list itself is narrowed per model call (`wrapStreamFn`), so that
    // a plan approved mid-run gives the run's next call every tool (a turn's tool list is fixed when it starts).
    sessionTools: (_sessionKey, tools) => {
      info.learn(tools);
      return undefined;
    },
    wrapStreamFn: (next) => planModeStreamFn(next, sessions, info),
    // Each session's own state, reminders and plan: built with its key, so one session never sees another's plan mode.
    sessionAgent: ({ sessionKey, agentId, settings }) => {
      if (!enabled.has(agentId)) return undefined;
      sessions.hydrate(sessionKey, readPlanMode(settings, unreadable));
      const plan = planRestoration(sessions, sessionKey);
      return {
        reminders: [planModeReminder(sessions, sessionKey)],
        context: (context) => addRestorationSources(context, { plan }),
        release: () => sessions.forget(sessionKey),
      };
    },
    sessionEnding: async ({ sessionKey, agentId }) => {
      if (!enabled.has(agentId)) return;
      sessions.leave(sessionKey);
      await sessions.settled(sessionKey);
    },
    ownershipChanged: () => {
      const context = started;
      if (context !== undefined) sessions.forgetWhere((sessionKey) => !context.owns(sessionKey));
    },
    start: (context) => {
      started = context;
    },
    stop: () => {
      started = undefined;
    },
  };
}
