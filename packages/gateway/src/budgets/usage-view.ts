import { goalOf } from "../goals/goal-record.js";
import { isSubagentKey } from "../session-key/session-key-lineage.js";
import type { SessionStore } from "../store/session-store.js";
import type { RunRecord } from "../store/store-types.js";
import type { BudgetConfig } from "./budget-config.js";
import { runsOfGoal, spendOfRuns } from "./gateway-budgets.js";
import { addSpend, NO_SPEND, type Spend, utcDay, utcDayStart, utcMonthStart } from "./spend-window.js";

/** Spend today and this month (UTC). */
export interface SpendPeriods {
  readonly today: Spend;
  readonly month: Spend;
}

/** What /usage shows. */
export interface UsageView {
  /** The UTC day, e.g. "2026-11-25". */
  readonly day: string;
  readonly agents: readonly (SpendPeriods & { readonly agentId: string; readonly budgets: BudgetConfig })[];
  readonly users: readonly (SpendPeriods & { readonly userId: string })[];
  readonly goals: readonly (SpendPeriods & {
    readonly sessionKey: string;
    readonly text: string;
    readonly status: string;
    readonly budgets: BudgetConfig;
  })[];
}

/** What the view is read from. */
export interface UsageSources {
  readonly store: SessionStore;
  readonly now: number;
  readonly agents: ReadonlyMap<string, BudgetConfig>;
  /** Spend per `user|day` booked by this process. */
  readonly userDays: ReadonlyMap<string, Spend>;
}

/**
 * Spend per agent and per goal from the stored runs (durable), per user from this process's bookings.
 * Contract: periods are UTC; a goal is listed when it was set this month, its spend counted from when it was set.
 */
export async function usageViewOf(sources: UsageSources): Promise<UsageView> {
  const { store, now } = sources;
  const dayStart = utcDayStart(now);
  const monthStart = utcMonthStart(now);
  const runs = (await store.listRuns()).filter((run) => run.startedAt >= monthStart);
  const periods = (selected: readonly RunRecord[]): SpendPeriods => ({
    today: spendOfRuns(selected.filter((run) => run.startedAt >= dayStart)),
    month: spendOfRuns(selected),
  });
  const agents = [...sources.agents].map(([agentId, budgets]) => ({
    agentId,
    budgets,
    ...periods(runs.filter((run) => run.agentId === agentId)),
  }));
  const goals = [];
  for (const session of await store.listSessions()) {
    if (isSubagentKey(session.key)) continue;
    const goal = goalOf(session.settings);
    if (goal === undefined || goal.setAt < monthStart) continue;
    const own = runsOfGoal(
      runs.filter((run) => run.sessionKey === session.key),
      goal,
    );
    goals.push({
      sessionKey: session.key,
      text: goal.text,
      status: goal.status === "completed" ? "completed" : (goal.auto?.status ?? "active"),
      budgets: sources.agents.get(session.agentId) ?? {},
      ...periods(own),
    });
  }
  const today = utcDay(now);
  const month = today.slice(0, 7);
  const users = new Map<string, { today: Spend; month: Spend }>();
  for (const [key, spend] of sources.userDays) {
    const at = key.lastIndexOf("|");
    const [userId, day] = [key.slice(0, at), key.slice(at + 1)];
    if (!day.startsWith(month)) continue;
    const row = users.get(userId) ?? { today: NO_SPEND, month: NO_SPEND };
    users.set(userId, {
      today: day === today ? addSpend(row.today, spend) : row.today,
      month: addSpend(row.month, spend),
    });
  }
  return { day: today, agents, goals, users: [...users].map(([userId, row]) => ({ userId, ...row })) };
}
