import type { Model, StreamFn } from "@chorus/core";
import type { BudgetConfig, LaneItem } from "@chorus/gateway";
import { callPurposeOf, isSubagentKey, rootKeyOf } from "@chorus/gateway";
import type { SessionStore, SpendBooking, SpendKey, SpendKind, SpendRow } from "@chorus/store";
import { NO_SPEND, type Spend, utcDay } from "@chorus/store";
import type { GoalRecord } from "../goals/goal-record.js";
import { isLiveAutonomous } from "../goals/goal-record.js";
import { BudgetLedger, type BudgetLimit, type Reservation } from "./budget-ledger.js";
import { budgetedStreamFn } from "./budgeted-stream-fn.js";
import { SpendRecorder } from "./spend-recorder.js";
import { reserveInStore, type StoreBudgetLimit } from "./store-reservation.js";

/** What the gateway's budgets are wired to. */
export interface GatewayBudgetParts {
  readonly store: SessionStore;
  readonly now: () => number;
  /** A session's agent when the session is live in memory (no store read); undefined otherwise. */
  agentOf(sessionKey: string): string | undefined;
  /**
   * A session's goal: kept in memory by the goal keeper after its first read, or read from the store when `fresh`
   * (in a cluster another instance may have changed it).
   */
  goalOf(sessionKey: string, fresh: boolean): Promise<GoalRecord | undefined>;
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
  /** Runs a spend write in the background (the gateway tracks it and logs a failure). */
  persist(work: Promise<unknown>): void;
}

/** What a refusal adds: what one call reserves, so an operator sees what `maxOutputTokens` does to a small budget. */
function reserveNote(maxOutput: number): string {
  return `each call reserves its input plus up to ${maxOutput} output tokens (the agent's maxOutputTokens)`;
}

function hasGoalBudget(budgets: BudgetConfig | undefined): boolean {
  return budgets?.goalTokens !== undefined || budgets?.goalCostUsd !== undefined;
}

/** The spend of a ledger row (or none). */
function spendOfRow(row: SpendRow | undefined): Spend {
  return row === undefined ? NO_SPEND : { tokens: row.tokens, cost: row.cost };
}

/** What one row of the ledger has spent. */
async function rowSpend(store: SessionStore, key: SpendKey): Promise<Spend> {
  const [row] = await store.listSpend({ ...key, fromPeriod: key.period, toPeriod: key.period });
  return spendOfRow(row);
}

/** A limit for both ways of reserving: in this process (`BudgetLedger`) or in the store (`holdSpend`). */
type GatewayBudgetLimit = BudgetLimit & StoreBudgetLimit;

/**
 * The gateway's budgets: each model call of a session is reserved against its agent's daily budget, its active goal's
 * budget and its schedule's (see BudgetLedger), and its real use is booked durably in the store's spend ledger per
 * agent and UTC day, per user and day (whoever started the turn; an autonomous goal's turns and its supervisor's
 * checks count for whoever set the goal) and per goal. A gateway alone on its store reserves in memory (no store
 * round trip before a call) and writes spend in batches; a cluster (the store has `ownership`) reserves in the store,
 * atomically across instances, and settles each call there (a call no budget limits is only booked, in batches on
 * each heartbeat: a message costs no spend statement of its own).
 * Contract: one per gateway; spend survives restarts (what `/usage` and the budgets read).
 */
export class GatewayBudgets {
  readonly #parts: GatewayBudgetParts;
  readonly #ledger = new BudgetLedger();
  readonly #recorder: SpendRecorder;
  /** Who started each session's current turn. */
  readonly #turnUser = new Map<string, string>();
  /** The schedule behind each session's current turn. */
  readonly #turnSchedule = new Map<string, string>();

  constructor(parts: GatewayBudgetParts) {
    this.#parts = parts;
    // A cluster instance books unlimited calls' spend on its heartbeat (`flushSpend`), not per message.
    const deferred = parts.store.ownership?.everyBeat !== undefined;
    this.#recorder = new SpendRecorder(parts.store, parts.persist, { deferred });
  }

  /**
   * `inner` with every call of a session reserved and booked here first (see `budgetedStreamFn`). What a call reserves
   * for its output is its `maxTokens`, which the gateway sets to the agent's `maxOutputTokens` (`cappedStreamFn`)
   * before the call reaches the extensions.
   */
  budgeted(inner: StreamFn): StreamFn {
    return budgetedStreamFn(inner, (call) => this.reserve(call));
  }

  /** Writes the spend booked but not yet written (a cluster's heartbeat and the gateway's stop). Never rejects. */
  flushSpend(): Promise<void> {
    return this.#recorder.flush();
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

  /**
   * Reserves one call of a session. A sub-agent's call is its root session's: charged to that session's agent, goal,
   * schedule and user (a sub-agent profile is a label, not an agent). Contract: undefined only when the session is
   * unknown; a refusal says how much output each call reserves.
   */
  async reserve(call: {
    readonly sessionKey: string;
    readonly model: Model;
    readonly purpose?: string | undefined;
    readonly maxOutput?: number;
    readonly estimate: () => Spend;
  }): Promise<Reservation | undefined> {
    const { store } = this.#parts;
    const inSubagent = isSubagentKey(call.sessionKey);
    const sessionKey = inSubagent ? rootKeyOf(call.sessionKey) : call.sessionKey;
    const purpose = callPurposeOf(call.purpose, inSubagent);
    // The hot path reads no store: the session's agent is known in memory, its goal is kept by the goal keeper.
    const agentId = this.#parts.agentOf(sessionKey) ?? (await store.getSession(sessionKey))?.agentId;
    if (agentId === undefined) return undefined;
    // In a cluster a goal budget is enforced on the goal as stored: another instance may have set or replaced it.
    const fresh = store.ownership !== undefined && hasGoalBudget(this.#parts.budgetsFor(agentId));
    const goal = await this.#parts.goalOf(sessionKey, fresh);
    // An inferred goal is informational only: no goal budget limits (or counts) the calls made while it is active.
    const activeGoal = goal?.status === "active" && goal.inferred !== true ? goal : undefined;
    const schedule = this.#turnSchedule.get(sessionKey);
    const user = this.#turnUser.get(sessionKey) ?? activeGoal?.setBy;
    const day = utcDay(this.#parts.now());
    const bookings = (actual: Spend): SpendBooking[] => {
      const at = (kind: SpendKind, subject: string, period: string) => ({ kind, subject, period, ...actual });
      return [
        at("agent", agentId, day),
        at("purpose", `${agentId}:${purpose}`, day),
        ...(user === undefined ? [] : [at("user", user, day)]),
        ...(activeGoal === undefined ? [] : [at("goal", activeGoal.id, day), at("goal", activeGoal.id, "total")]),
        ...(schedule === undefined ? [] : [at("schedule", schedule, "total")]),
      ];
    };
    const limits = this.#limitsOf(agentId, day, activeGoal, schedule);
    const estimate = limits.length === 0 ? NO_SPEND : call.estimate();
    // Nothing to reserve (no limit applies): even a cluster only books the spend, in batches.
    const reservation =
      store.ownership === undefined || limits.length === 0
        ? await this.#reserveHere(limits, estimate, bookings)
        : await reserveInStore(
            { store, now: this.#parts.now, bookings, persist: this.#parts.persist },
            limits,
            estimate,
          );
    if (!reservation.ok) {
      // A running autonomous goal stops starting turns whichever budget refused.
      if (isLiveAutonomous(goal)) this.#parts.goalExhausted(sessionKey, reservation.exhausted);
      if (schedule !== undefined && reservation.exhausted.startsWith("schedule")) {
        this.#parts.scheduleExhausted(schedule, reservation.exhausted);
      }
      if (call.maxOutput === undefined) return reservation;
      return { ok: false, exhausted: `${reservation.exhausted}; ${reserveNote(call.maxOutput)}` };
    }
    return reservation;
  }

  /** What the calls of an agent hold now (in this process's ledger) against its daily budget. */
  reservedToday(agentId: string): Spend {
    return this.#ledger.reserved(`agent:${agentId}:${utcDay(this.#parts.now())}`);
  }

  /** In this process: the ledger decides, and the real use is booked in the store after (batched). */
  async #reserveHere(
    limits: readonly GatewayBudgetLimit[],
    estimate: Spend,
    bookings: (actual: Spend) => SpendBooking[],
  ): Promise<Reservation> {
    const reservation = await this.#ledger.reserve(limits, estimate);
    if (!reservation.ok) return reservation;
    return {
      ok: true,
      settle: (actual: Spend) => {
        reservation.settle(actual);
        this.#recorder.add(bookings(actual));
      },
    };
  }

  #limitsOf(
    agentId: string,
    day: string,
    goal: GoalRecord | undefined,
    schedule: string | undefined,
  ): GatewayBudgetLimit[] {
    const budgets = this.#parts.budgetsFor(agentId);
    if (budgets === undefined) return [];
    const { store } = this.#parts;
    const limits: GatewayBudgetLimit[] = [];
    const caps = (tokens: number | undefined, cost: number | undefined) => ({
      ...(tokens === undefined ? {} : { tokens }),
      ...(cost === undefined ? {} : { cost }),
    });
    if (budgets.dailyTokens !== undefined || budgets.dailyCostUsd !== undefined) {
      const key: SpendKey = { kind: "agent", subject: agentId, period: day };
      limits.push({
        scope: `agent:${agentId}:${day}`,
        key,
        label: `agent ${agentId}'s daily budget`,
        ...caps(budgets.dailyTokens, budgets.dailyCostUsd),
        seed: () => rowSpend(store, key),
      });
    }
    if (goal !== undefined && (budgets.goalTokens !== undefined || budgets.goalCostUsd !== undefined)) {
      const key: SpendKey = { kind: "goal", subject: goal.id, period: "total" };
      limits.push({
        scope: `goal:${goal.id}`,
        key,
        label: `the goal's budget`,
        ...caps(budgets.goalTokens, budgets.goalCostUsd),
        seed: () => rowSpend(store, key),
      });
    }
    if (schedule !== undefined && (budgets.scheduleTokens !== undefined || budgets.scheduleCostUsd !== undefined)) {
      limits.push({
        scope: `schedule:${schedule}`,
        key: { kind: "schedule", subject: schedule, period: "total" },
        label: `schedule ${schedule}'s budget`,
        ...caps(budgets.scheduleTokens, budgets.scheduleCostUsd),
        seed: () => this.#parts.scheduleSpent(schedule),
      });
    }
    return limits;
  }
}
