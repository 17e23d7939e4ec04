import { type BudgetConfig, type CallPurpose, formatCost } from "@chorus/gateway";
import type { Spend } from "@chorus/store";
import type { SpendPeriods, UsageView } from "../budgets/usage-view.js";

function spend(value: Spend): string {
  return `${value.tokens} tokens · ${formatCost(value.cost)}`;
}

function periods(row: SpendPeriods): string {
  return `today ${spend(row.today)}; this month ${spend(row.month)}`;
}

function limit(tokens: number | undefined, cost: number | undefined, per: string): string {
  const parts = [
    ...(tokens === undefined ? [] : [`${tokens} tokens`]),
    ...(cost === undefined ? [] : [formatCost(cost)]),
  ];
  return parts.length === 0 ? "" : ` (budget ${parts.join(" and ")} ${per})`;
}

function dailyBudget(budgets: BudgetConfig): string {
  return limit(budgets.dailyTokens, budgets.dailyCostUsd, "per day");
}

function goalBudget(budgets: BudgetConfig): string {
  return limit(budgets.goalTokens, budgets.goalCostUsd, "per goal");
}

/** How /usage names each kind of call. */
const KIND_LABELS: Readonly<Record<CallPurpose, string>> = {
  turn: "turns",
  subagent: "sub-agents",
  taco: "tool output summaries (TACO)",
  subgoals: "subgoal extraction",
  compaction: "compaction",
  supervisor: "goal supervisor",
  memory: "memory extraction",
  title: "titles",
  tool_pair_summary: "tool-pair summaries",
  session_memory: "session memory",
  goal_inference: "goal inference",
  skill_draft: "skill drafts",
};

/**
 * The /usage answer. Contract: plain Markdown, one line per agent (with a line per kind of call that spent this month
 * and what each call reserves), user and goal.
 */
export function renderUsage(view: UsageView): string {
  const lines = [`**Usage** (UTC; today is ${view.day})`, "", "**Per agent**"];
  for (const row of view.agents) {
    lines.push(`- ${row.agentId}: ${periods(row)}${dailyBudget(row.budgets)}`);
    for (const kind of row.byKind) lines.push(`  - ${KIND_LABELS[kind.kind]}: ${periods(kind)}`);
    if (row.maxOutputTokens !== undefined) {
      lines.push(
        `  - each call reserves its input plus up to ${row.maxOutputTokens} output tokens (maxOutputTokens); ` +
          `reserved now: ${spend(row.reserved)}`,
      );
    }
  }
  lines.push("", "**Per user**");
  if (view.users.length === 0) lines.push("- none yet");
  for (const row of view.users) lines.push(`- ${row.userId}: ${periods(row)}`);
  lines.push("", "**Per goal**");
  if (view.goals.length === 0) lines.push("- no goal this month");
  for (const row of view.goals) {
    const where = row.sessionKey === undefined ? "" : ` \`${row.sessionKey}\``;
    lines.push(`- ${row.text} [${row.status}]${where}: ${periods(row)}${goalBudget(row.budgets)}`);
  }
  return lines.join("\n");
}
