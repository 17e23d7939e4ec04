import type { ExtensionCommand, ExtensionCommandContext, ExtensionStartContext } from "@chorus/gateway";
import { GOAL_DEFAULTS } from "@chorus/gateway";
import { type AutonomyParts, agentConfigOf } from "../autonomy-parts.js";
import { usageViewOf } from "../budgets/usage-view.js";
import { GOAL_USAGE, parseGoalArgs } from "../goals/goal-command-args.js";
import { controlGoalById } from "../goals/goal-control-by-id.js";
import { parseScheduleArgs, SCHEDULE_USAGE } from "../schedules/schedule-command-args.js";
import { renderSchedules } from "../schedules/schedule-fleet.js";
import { renderUsage } from "./render-usage.js";

/** The started extension's parts and context; a command before the gateway started is answered with a sentence. */
export type StartedAutonomy = () =>
  | { readonly context: ExtensionStartContext; readonly parts: AutonomyParts }
  | undefined;

const NOT_STARTED = "Goals, schedules and budgets are not running yet; try again in a moment.";

/** Runs a /goal, /done or /clear with `args`: at the chat's owner (the goal's driver lives there). */
function runGoal(started: StartedAutonomy, fixedArgs?: readonly string[]) {
  return async ({ args, sessionKey, agentId, message, isAdmin, trust }: ExtensionCommandContext): Promise<string> => {
    const autonomy = started();
    if (autonomy === undefined) return NOT_STARTED;
    const config = agentConfigOf(autonomy.context, agentId)?.goals ?? GOAL_DEFAULTS;
    const request = parseGoalArgs(fixedArgs ?? args, config, trust);
    const caller = { sessionKey, agentId, senderId: message.sender.id, isAdmin, trust };
    if (request.kind === "control") return controlGoalById(autonomy.context, request, caller);
    return autonomy.parts.goals.command(request, caller);
  };
}

/**
 * /goal (show, set, or run a goal on its own), /done, /clear, /schedule (admins) and /usage (admins). The goal
 * commands run at the chat's owner in a cluster (`atOwner`: where the goal's driver lives).
 */
export function autonomyCommands(started: StartedAutonomy): ExtensionCommand[] {
  return [
    {
      name: "goal",
      usage: GOAL_USAGE,
      description: "show or set this chat's goal; run one autonomously (admins)",
      adminOnly: false,
      atOwner: true,
      run: runGoal(started),
    },
    {
      name: "done",
      usage: "/done",
      description: "mark this chat's goal completed",
      adminOnly: false,
      atOwner: true,
      run: runGoal(started, ["done"]),
    },
    {
      name: "clear",
      usage: "/clear",
      description: "drop this chat's goal (the conversation stays)",
      adminOnly: false,
      atOwner: true,
      run: runGoal(started, ["clear"]),
    },
    {
      name: "usage",
      usage: "/usage",
      description: "spend per agent, user and goal, today and this month (admins)",
      adminOnly: true,
      ephemeral: true,
      run: async () => {
        const autonomy = started();
        if (autonomy === undefined) return NOT_STARTED;
        const { context, parts } = autonomy;
        return renderUsage(
          await usageViewOf({
            store: context.store,
            now: context.now(),
            agents: new Map(context.config.agents.map((agent) => [agent.id, agent.budgets])),
            maxOutputOf: (agentId) => agentConfigOf(context, agentId)?.maxOutputTokens,
            reservedOf: (agentId) => parts.budgets.reservedToday(agentId),
          }),
        );
      },
    },
    {
      name: "schedule",
      usage: SCHEDULE_USAGE,
      description: "run a prompt later, every so often or by cron (admins)",
      adminOnly: true,
      run: async ({ args, sessionKey, agentId, message }) => {
        const autonomy = started();
        if (autonomy === undefined) return NOT_STARTED;
        const schedules = autonomy.parts.schedules;
        const request = parseScheduleArgs(args, autonomy.context.now());
        switch (request.kind) {
          case "refused":
            return request.message;
          case "list":
            return renderSchedules(await schedules.entries()).join("\n");
          case "stop":
            return schedules.stop(request.id);
          case "create":
            return schedules.create(request, { sessionKey, agentId, senderId: message.sender.id });
        }
      },
    },
  ];
}
