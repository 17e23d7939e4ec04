import type { OutboundButton } from "@chorus/gateway";
import { formatCost } from "@chorus/gateway";
import type { SessionRecord } from "@chorus/store";
import { describeVerdict } from "./describe-goal.js";
import { type AutonomousState, goalOf } from "./goal-record.js";

/** How /agents groups autonomous goals. */
export type AutonomousGoalGroup = "active" | "paused" | "completed" | "orphaned";

/** One autonomous goal in the fleet. */
export interface AutonomousGoalEntry {
  /** The goal's id: `/goal stop|pause|resume <id>` (or its first 8 characters) controls it from any chat. */
  readonly goalId: string;
  readonly sessionKey: string;
  readonly agentId: string;
  readonly text: string;
  readonly group: AutonomousGoalGroup;
  readonly state: AutonomousState;
  /** What the goal's session spent since the goal was set, and the goal's budget (from `budgets.goal*`). */
  readonly spend?: {
    readonly tokens: number;
    readonly cost: number;
    readonly budgetTokens?: number;
    readonly budgetCost?: number;
  };
}

/** Goals listed per group at most; older ones are counted. */
const MAX_PER_GROUP = 10;
const GROUP_ORDER: readonly AutonomousGoalGroup[] = ["active", "paused", "completed", "orphaned"];

/** The autonomous goals stored in these sessions' settings, most recently changed first. Contract: pure. */
export function autonomousGoalsOf(sessions: readonly SessionRecord[]): AutonomousGoalEntry[] {
  const entries: AutonomousGoalEntry[] = [];
  for (const session of sessions) {
    const goal = goalOf(session.settings);
    if (goal?.auto === undefined) continue;
    entries.push({
      goalId: goal.id,
      sessionKey: session.key,
      agentId: session.agentId,
      text: goal.text,
      group: groupOf(goal.auto),
      state: goal.auto,
    });
  }
  return entries.sort((a, b) => b.state.updatedAt - a.state.updatedAt);
}

function groupOf(auto: AutonomousState): AutonomousGoalGroup {
  if (auto.status === "running") return "active";
  if (auto.status === "paused") return "paused";
  if (auto.status === "orphaned") return "orphaned";
  return "completed";
}

/** The "Autonomous goals" section of /agents: per group, each goal's turns and the supervisor's last verdict. */
export function renderAutonomousGoals(entries: readonly AutonomousGoalEntry[]): string[] {
  const lines = ["**Autonomous goals**"];
  if (entries.length === 0) return [...lines, "- none"];
  for (const group of GROUP_ORDER) {
    const members = entries.filter((entry) => entry.group === group);
    if (members.length === 0) continue;
    lines.push(`${group} (${members.length}):`);
    for (const entry of members.slice(0, MAX_PER_GROUP)) {
      const { state } = entry;
      const note = state.note === undefined || group === "active" ? "" : ` · ${state.note}`;
      lines.push(
        `- ${entry.agentId}: ${quote(entry.text)} · ${state.status} · turn ${state.turns}/${state.maxTurns} · ` +
          `${describeVerdict(state)}${note}${describeSpend(entry.spend)} · \`${entry.sessionKey}\` · ` +
          `id \`${shortGoalId(entry.goalId)}\``,
      );
    }
    if (members.length > MAX_PER_GROUP) lines.push(`… and ${members.length - MAX_PER_GROUP} more`);
  }
  lines.push(
    "Control one: /goal stop|pause|resume <id> from any chat (or its buttons), /agents goal stop|pause|resume " +
      "<sessionKey>, or /goal stop|pause|resume in its chat.",
  );
  return lines;
}

/** How /agents shows a goal id: its first 8 characters, enough for `/goal stop <id>`. */
export function shortGoalId(goalId: string): string {
  return goalId.slice(0, 8);
}

/**
 * Goals given buttons under /agents at most (two buttons each), the most recently changed first: four buttons fit one
 * row everywhere (Discord's row holds five). The others are controlled with `/goal … <id>`.
 */
const MAX_GOALS_WITH_BUTTONS = 2;

/**
 * The buttons under /agents: Pause and Stop for each running goal, Resume and Stop for each paused or orphaned one.
 * Each carries `/goal <action> <goal id>`, so a press runs that command as whoever pressed it. Contract: pure.
 */
export function autonomousGoalButtons(entries: readonly AutonomousGoalEntry[]): OutboundButton[] {
  return entries
    .filter((entry) => entry.group !== "completed")
    .slice(0, MAX_GOALS_WITH_BUTTONS)
    .flatMap((entry) => {
      const id = shortGoalId(entry.goalId);
      const first = entry.group === "active" ? "pause" : "resume";
      return [
        { id: `/goal ${first} ${entry.goalId}`, label: `${first === "pause" ? "Pause" : "Resume"} ${id}` },
        { id: `/goal stop ${entry.goalId}`, label: `Stop ${id}` },
      ];
    });
}

function quote(text: string): string {
  return `“${text.length > 80 ? `${text.slice(0, 79)}…` : text}”`;
}

function describeSpend(spend: AutonomousGoalEntry["spend"]): string {
  if (spend === undefined) return "";
  const budget = [
    ...(spend.budgetTokens === undefined ? [] : [`${spend.budgetTokens} tokens`]),
    ...(spend.budgetCost === undefined ? [] : [formatCost(spend.budgetCost)]),
  ];
  const against = budget.length === 0 ? "" : ` of ${budget.join(" / ")}`;
  return ` · spent ${spend.tokens} tokens · ${formatCost(spend.cost)}${against}`;
}
