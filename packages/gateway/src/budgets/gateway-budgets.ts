import type { Model } from "@chorus/core";
import type { GoalRecord } from "../goals/goal-record.js";
import { goalOf, isLiveAutonomous } from "../goals/goal-record.js";
import type { LaneItem } from "../lanes/lane-item.js";
import type { SessionStore } from "../store/session-store.js";
import type { RunRecord, SessionRecord } from "../store/store-types.js";
import type { BudgetConfig } from "./budget-config.js";
import { BudgetLedger, type BudgetLimit, type Reservation } from "./budget-ledger.js";
import { addSpend, NO_SPEND, type Spend, utcDay, utcDayStart } from "./spend-window.js";

/** What the gateway's budgets are wired to. */
export interface GatewayBudgetParts {
  readonly store: SessionStore;
  readonly now: () => number;
  /** A session's agent when the session is live in memory (no store read); undefined otherwise. */
  agentOf(sessionKey: string): string | undefined;
  /** An agent's budgets; undefined for an agent no longer configured. */
  budgetsFor(agentId: string): BudgetConfig | undefined;
  /** A running autonomous goal met an exhausted budget: it must start no further turn. */
  goalExhausted(sessionKey: string, reason: string): void;
  /** The schedule whose prompt is among a turn's items, if any. */
  scheduleOf(items: readonly LaneItem[]): string | undefined;
  /** What a schedule spent before this process counted (kept with the schedule). */
  scheduleSpent(scheduleId: string): Promise<Spend>;
  /** A schedule met its exhausted budget: it must run no more. */
  scheduleExhausted(scheduleId: string, reason: string): void;
}

function hasGoalBudget(budgets: BudgetConfig | undefined): boolean {
  return budgets?.goalTokens !== undefined || budgets?.goalCostUsd !== undefined;
}

/** The spend of runs, summed. */
export function spendOfRuns(runs: readonly RunRecord[]): Spend {
  return runs.reduce(
    (sum, run) => addSpend(sum, { tokens: run.usage.totalTokens, cost: run.usage.cost.total }),
    NO_SPEND,
  );
}

/** A goal's runs among a session's: started from when it was set until it was completed. */
export function runsOfGoal(runs: readonly RunRecord[], goal: GoalRecord): RunRecord[] {
  const ended = goal.completedAt ?? Number.POSITIVE_INFINITY;
  return runs.filter((run) => run.startedAt >= goal.setAt && run.startedAt <= ended);
}

/**
 * The gateway's budgets: each model call of a session is reserved against its agent's daily budget and its active
 * goal's budget (see BudgetLedger), and its use is booked per user (whoever started the turn; an autonomous goal's
 * turns count for whoever set the goal). Contract: one per gateway; per-user totals cover this process's life.
 */
export class GatewayBudgets {
  readonly #parts: GatewayBudgetParts;
  readonly #ledger = new BudgetLedger();
  /** Who started each session's current turn. */
  readonly #turnUser = new Map<string, string>();
  /** The schedule behind each session's current turn. */
  readonly #turnSchedule = new Map<string, string>();
  /** Spend per `user|day`, booked as calls settle. */
  readonly #userDays = new Map<string, Spend>();

  constructor(parts: GatewayBudgetParts) {
    this.#parts = parts;
  }

  /** A turn started: its calls count for the last item's sender. */
  turnStarted(sessionKey: string, items: readonly LaneItem[]): void {
    const sender = items.findLast((item) => item.senderId !== undefined)?.senderId;
    if (sender === undefined) this.#turnUser.delete(sessionKey);
    else this.#turnUser.set(sessionKey, sender);
    const schedule = this.#parts.scheduleOf(items);
    if (schedule === undefined) this.#turnSchedule.delete(sessionKey);
    else this.#turnSchedule.set(sessionKey, schedule);
  }

  /** Reserves one call of a session. Contract: undefined only when the session is unknown. */
  async reserve(call: { readonly sessionKey: string; readonly model: Model; readonly estimate: () => Spend }) {
    const { store } = this.#parts;
    // The hot path reads no store: the session's agent is known in memory; its goal is read only when it has a budget.
    let agentId = this.#parts.agentOf(call.sessionKey);
    let session: SessionRecord | undefined;
    if (agentId === undefined || hasGoalBudget(this.#parts.budgetsFor(agentId))) {
      session = await store.getSession(call.sessionKey);
      if (session === undefined) return undefined;
      agentId = session.agentId;
    }
    const goal = session === undefined ? undefined : goalOf(session.settings);
    const activeGoal = goal?.status === "active" ? goal : undefined;
    const schedule = this.#turnSchedule.get(call.sessionKey);
    const limits = this.#limitsOf(agentId, call.sessionKey, activeGoal, schedule);
    const reservation = await this.#ledger.reserve(limits, limits.length === 0 ? NO_SPEND : call.estimate());
    if (!reservation.ok) {
      // A running autonomous goal stops starting turns whichever budget refused.
      const current = session ?? (await store.getSession(call.sessionKey));
      const live = current === undefined ? undefined : goalOf(current.settings);
      if (isLiveAutonomous(live)) this.#parts.goalExhausted(call.sessionKey, reservation.exhausted);
      if (schedule !== undefined && reservation.exhausted.startsWith("schedule")) {
        this.#parts.scheduleExhausted(schedule, reservation.exhausted);
      }
      return reservation;
    }
    const user = this.#turnUser.get(call.sessionKey) ?? activeGoal?.setBy;
    return {
      ok: true,
      settle: (actual: Spend) => {
        reservation.settle(actual);
        if (user !== undefined) this.#bookUser(user, actual);
      },
    } satisfies Reservation;
  }

  /** Spend per user and UTC day ("2026-11-25") booked by this process. */
  userDays(): ReadonlyMap<string, Spend> {
    return this.#userDays;
  }

  #bookUser(user: string, actual: Spend): void {
    const key = `${user}|${utcDay(this.#parts.now())}`;
    this.#userDays.set(key, addSpend(this.#userDays.get(key) ?? NO_SPEND, actual));
  }

  #limitsOf(agentId: string, sessionKey: string, goal: GoalRecord | undefined, schedule: string | undefined) {
    const budgets = this.#parts.budgetsFor(agentId);
    if (budgets === undefined) return [];
    const { store } = this.#parts;
    const limits: BudgetLimit[] = [];
    if (budgets.dailyTokens !== undefined || budgets.dailyCostUsd !== undefined) {
      const now = this.#parts.now();
      const since = utcDayStart(now);
      limits.push({
        scope: `agent:${agentId}:${utcDay(now)}`,
        label: `agent ${agentId}'s daily budget`,
        ...(budgets.dailyTokens === undefined ? {} : { tokens: budgets.dailyTokens }),
        ...(budgets.dailyCostUsd === undefined ? {} : { cost: budgets.dailyCostUsd }),
        seed: async () => spendOfRuns((await store.listRuns({ agentId })).filter((run) => run.startedAt >= since)),
      });
    }
    if (goal !== undefined && (budgets.goalTokens !== undefined || budgets.goalCostUsd !== undefined)) {
      limits.push({
        scope: `goal:${goal.id}`,
        label: `the goal's budget`,
        ...(budgets.goalTokens === undefined ? {} : { tokens: budgets.goalTokens }),
        ...(budgets.goalCostUsd === undefined ? {} : { cost: budgets.goalCostUsd }),
        seed: async () =>
          spendOfRuns((await store.listRuns({ sessionKey })).filter((run) => run.startedAt >= goal.setAt)),
      });
    }
    if (schedule !== undefined && (budgets.scheduleTokens !== undefined || budgets.scheduleCostUsd !== undefined)) {
      limits.push({
        scope: `schedule:${schedule}`,
        label: `schedule ${schedule}'s budget`,
        ...(budgets.scheduleTokens === undefined ? {} : { tokens: budgets.scheduleTokens }),
        ...(budgets.scheduleCostUsd === undefined ? {} : { cost: budgets.scheduleCostUsd }),
        seed: () => this.#parts.scheduleSpent(schedule),
      });
    }
    return limits;
  }
}
