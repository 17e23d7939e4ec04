import type { SessionStore } from "@chorus/store";
import { GatewayBudgets } from "../budgets/gateway-budgets.js";
import type { GoalKeeper } from "../goals/goal-keeper.js";
import { goalOf } from "../goals/goal-record.js";
import { describeError, type GatewayLogger } from "../logging/gateway-logger.js";
import type { Scheduler } from "../schedules/scheduler.js";
import type { PreparedAgent } from "./prepare-agent.js";
import type { SessionRegistry } from "./session-registry.js";

/** What the budgets read from the rest of the gateway (read at call time: built after the budgets). */
export interface BudgetsWiring {
  readonly store: SessionStore;
  readonly now: () => number;
  readonly logger: GatewayLogger;
  readonly agents: ReadonlyMap<string, PreparedAgent>;
  readonly track: (work: Promise<unknown>) => void;
  sessions(): SessionRegistry;
  goals(): GoalKeeper;
  schedules(): Scheduler;
}

/**
 * The gateway's budgets: which agent, goal and schedule a session's model call counts against (a goal read fresh from
 * the store when asked), what each agent allows, and who is told when a goal's or a schedule's budget runs out.
 * Contract: spend that cannot be recorded is logged, never thrown.
 */
export function wireBudgets(wiring: BudgetsWiring): GatewayBudgets {
  const { store, agents, track } = wiring;
  return new GatewayBudgets({
    store,
    now: wiring.now,
    agentOf: (sessionKey) => wiring.sessions().get(sessionKey)?.agentId,
    goalOf: async (sessionKey, fresh) => {
      if (!fresh) return wiring.goals().goalOf(sessionKey);
      const session = await store.getSession(sessionKey);
      return session === undefined ? undefined : goalOf(session.settings);
    },
    budgetsFor: (agentId) => agents.get(agentId)?.config.budgets,
    maxOutputOf: (agentId) => (agentId === undefined ? undefined : agents.get(agentId)?.config.maxOutputTokens),
    goalExhausted: (sessionKey, reason) => track(wiring.goals().budgetExhausted(sessionKey, reason)),
    scheduleOf: (items) => wiring.schedules().scheduleOf(items),
    scheduleSpent: (id) => wiring.schedules().spent(id),
    scheduleExhausted: (id, reason) => track(wiring.schedules().exhausted(id, reason)),
    persist: (work) =>
      track(work.catch((error: unknown) => wiring.logger.error({ error: describeError(error) }, "spend not recorded"))),
  });
}
