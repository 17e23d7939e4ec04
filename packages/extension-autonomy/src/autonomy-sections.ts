import type { AgentsSection, ExtensionStartContext } from "@chorus/gateway";
import { isSubagentKey } from "@chorus/gateway";
import type { StartedAutonomy } from "./commands/autonomy-commands.js";
import { controlGoalOfSession } from "./goals/goal-control-by-id.js";
import {
  type AutonomousGoalEntry,
  autonomousGoalButtons,
  autonomousGoalsOf,
  renderAutonomousGoals,
} from "./goals/goal-fleet.js";
import { goalOf } from "./goals/goal-record.js";
import { renderSchedules } from "./schedules/schedule-fleet.js";

/**
 * The sections of /agents (admins): "goal" — every autonomous goal by group with its spend against its budget, Pause
 * / Resume / Stop buttons, and `/agents goal stop|pause|resume <sessionKey>`; "schedules" — each schedule's next run.
 */
export function autonomySections(started: StartedAutonomy): AgentsSection[] {
  return [
    {
      name: "goal",
      render: async () => {
        const autonomy = started();
        if (autonomy === undefined) return "**Autonomous goals**\n- not running yet";
        const entries = await goalsWithSpend(autonomy.context);
        return { text: renderAutonomousGoals(entries).join("\n"), buttons: autonomousGoalButtons(entries) };
      },
      act: async ([verb, sessionKey], { message }) => {
        const autonomy = started();
        if (autonomy === undefined) return "Goals are not running yet; try again in a moment.";
        if ((verb === "stop" || verb === "pause" || verb === "resume") && sessionKey !== undefined) {
          return controlGoalOfSession(autonomy.context, sessionKey, verb, message.sender.id);
        }
        return "Usage: /agents goal stop|pause|resume <sessionKey> (the keys are listed under Autonomous goals).";
      },
    },
    {
      name: "schedules",
      render: async () => {
        const autonomy = started();
        return renderSchedules(autonomy === undefined ? [] : await autonomy.parts.schedules.entries()).join("\n");
      },
    },
  ];
}

/** Every autonomous goal with its spend (the spend ledger's total for it, its supervisor's checks included). */
async function goalsWithSpend(context: ExtensionStartContext): Promise<AutonomousGoalEntry[]> {
  const sessions = (await context.store.listSessions()).filter((session) => !isSubagentKey(session.key));
  return Promise.all(
    autonomousGoalsOf(sessions).map(async (entry) => {
      const session = sessions.find((candidate) => candidate.key === entry.sessionKey);
      const goal = session === undefined ? undefined : goalOf(session.settings);
      if (goal === undefined) return entry;
      const [row] = await context.store.listSpend({
        kind: "goal",
        subject: goal.id,
        fromPeriod: "total",
        toPeriod: "total",
      });
      const budgets = context.config.agents.find((agent) => agent.id === entry.agentId)?.budgets;
      return {
        ...entry,
        spend: {
          tokens: row?.tokens ?? 0,
          cost: row?.cost ?? 0,
          ...(budgets?.goalTokens === undefined ? {} : { budgetTokens: budgets.goalTokens }),
          ...(budgets?.goalCostUsd === undefined ? {} : { budgetCost: budgets.goalCostUsd }),
        },
      };
    }),
  );
}
