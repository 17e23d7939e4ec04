import type { BudgetConfig } from "@chorus/gateway";
import { CALL_PURPOSES, type CallPurpose, isSubagentKey } from "@chorus/gateway";
import type { SessionStore, SpendKind, SpendRow } from "@chorus/store";
import { addSpend, NO_SPEND, type Spend, utcDay } from "@chorus/store";
import { goalOf } from "../goals/goal-record.js";

/** Spend today and this month (UTC). */
export interface SpendPeriods {
  readonly today: Spend;
  readonly month: Spend;
}

/** What /usage shows. */
export interface UsageView {
  /** The UTC day, e.g. "2026-11-25". */
  readonly day: string;
  readonly agents: readonly (SpendPeriods & {
    readonly agentId: string;
    readonly budgets: BudgetConfig;
    /** The output each of its calls may produce, and so reserves (`maxOutputTokens`). */
    readonly maxOutputTokens: number | undefined;
    /** What its calls under way hold against its daily budget now. */
    readonly reserved: Spend;
    /** Its spend per kind of call, in `CALL_PURPOSES` order; kinds that spent nothing this month are left out. */
    readonly byKind: readonly (SpendPeriods & { readonly kind: CallPurpose })[];
  })[];
  readonly users: readonly (SpendPeriods & { readonly userId: string })[];
  readonly goals: readonly (SpendPeriods & {
    readonly goalId: string;
    /** The goal's session; undefined when no session holds the goal any more (replaced or cleared). */
    readonly sessionKey: string | undefined;
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
  /** An agent's `maxOutputTokens`. */
  maxOutputOf?(agentId: string): number | undefined;
  /** What an agent's calls hold now in this process (a cluster's holds are in the ledger's rows). */
  reservedOf?(agentId: string): Spend;
}

/** Each subject's spend today and this month, from the month's day rows of one kind. */
function periodsBySubject(rows: readonly SpendRow[], kind: SpendKind, today: string): Map<string, SpendPeriods> {
  const bySubject = new Map<string, SpendPeriods>();
  for (const row of rows) {
    if (row.kind !== kind) continue;
    const spend = { tokens: row.tokens, cost: row.cost };
    const held = bySubject.get(row.subject) ?? { today: NO_SPEND, month: NO_SPEND };
    bySubject.set(row.subject, {
      today: row.period === today ? addSpend(held.today, spend) : held.today,
      month: addSpend(held.month, spend),
    });
  }
  return bySubject;
}

const NOTHING: SpendPeriods = { today: NO_SPEND, month: NO_SPEND };

/**
 * Spend per agent (and per kind of call), per user and per goal from the store's spend ledger (durable: it survives restarts, and in a
 * cluster it is every instance's). Contract: periods are UTC days and the UTC month; every configured agent is listed;
 * a goal is listed when it spent this month or is the goal of a session now.
 */
export async function usageViewOf(sources: UsageSources): Promise<UsageView> {
  const { store } = sources;
  const today = utcDay(sources.now);
  const month = today.slice(0, 7);
  const rows = await store.listSpend({ fromPeriod: `${month}-01`, toPeriod: `${month}-31` });
  const agentSpend = periodsBySubject(rows, "agent", today);
  const kindSpend = periodsBySubject(rows, "purpose", today);
  const heldInRows = (agentId: string): Spend => {
    const row = rows.find((r) => r.kind === "agent" && r.subject === agentId && r.period === today);
    return row === undefined ? NO_SPEND : { tokens: row.reservedTokens, cost: row.reservedCost };
  };
  const agents = [...sources.agents].map(([agentId, budgets]) => ({
    agentId,
    budgets,
    maxOutputTokens: sources.maxOutputOf?.(agentId),
    reserved: addSpend(heldInRows(agentId), sources.reservedOf?.(agentId) ?? NO_SPEND),
    byKind: CALL_PURPOSES.flatMap((kind) => {
      const spent = kindSpend.get(`${agentId}:${kind}`);
      return spent === undefined ? [] : [{ kind, ...spent }];
    }),
    ...(agentSpend.get(agentId) ?? NOTHING),
  }));
  const users = [...periodsBySubject(rows, "user", today)].map(([userId, periods]) => ({ userId, ...periods }));
  const goalSpend = periodsBySubject(rows, "goal", today);
  const goals: UsageView["goals"][number][] = [];
  for (const session of await store.listSessions()) {
    if (isSubagentKey(session.key)) continue;
    const goal = goalOf(session.settings);
    if (goal === undefined) continue;
    const spent = goalSpend.get(goal.id);
    goalSpend.delete(goal.id);
    if (spent === undefined && utcDay(goal.setAt).slice(0, 7) !== month) continue;
    goals.push({
      goalId: goal.id,
      sessionKey: session.key,
      text: goal.text,
      status: goal.status === "completed" ? "completed" : (goal.auto?.status ?? "active"),
      budgets: sources.agents.get(session.agentId) ?? {},
      ...(spent ?? NOTHING),
    });
  }
  for (const [goalId, spent] of goalSpend) {
    goals.push({ goalId, sessionKey: undefined, text: `goal ${goalId}`, status: "replaced", budgets: {}, ...spent });
  }
  return { day: today, agents, goals, users };
}
