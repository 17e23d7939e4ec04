import { runsOfGoal, spendOfRuns } from "../budgets/gateway-budgets.js";
import { buildFleetView, type FleetView } from "../fleet/fleet-view.js";
import type { LiveRun } from "../fleet/run-tracker.js";
import type { AutonomousGoalEntry } from "../goals/goal-fleet.js";
import { goalOf } from "../goals/goal-record.js";
import { isSubagentKey, rootKeyOf } from "../session-key/session-key-lineage.js";
import type { RunRecord, SessionRecord } from "../store/store-types.js";
import type { GatewayContext } from "./gateway-context.js";
import { sessionChatOf } from "./session-chat.js";

/** The fleet as /agents shows it: agents, their sessions, running runs (stored and live). */
export async function fleetOf(ctx: GatewayContext): Promise<FleetView> {
  const runs = withLiveRuns(await ctx.store.listRuns({ status: "running" }), ctx.runs.all());
  const runSessions = new Map<string, SessionRecord>();
  for (const run of runs) {
    const session = await ctx.store.getSession(run.sessionKey);
    if (session !== undefined) runSessions.set(run.sessionKey, session);
  }
  const sessions = (await ctx.store.listSessions()).filter((s) => !isSubagentKey(s.key));
  const view = buildFleetView({
    agents: ctx.config.agents,
    bindings: ctx.config.bindings,
    sessions,
    runs,
    runSessions,
    live: ctx.runs,
    now: ctx.now(),
  });
  if (view.goals === undefined) return view;
  return { ...view, goals: await Promise.all(view.goals.map((entry) => withGoalSpend(ctx, sessions, entry))) };
}

/**
 * The stored running runs and this process's live runs not stored yet (a turn's run is written by its first commit),
 * so /agents shows a run from its start.
 */
function withLiveRuns(stored: readonly RunRecord[], live: readonly LiveRun[]): RunRecord[] {
  const ids = new Set(stored.map((run) => run.id));
  const unstored = live
    .filter((run) => !ids.has(run.runId))
    .map(
      (run): RunRecord => ({
        id: run.runId,
        sessionKey: run.sessionKey,
        ...(run.parentRunId === undefined ? {} : { parentRunId: run.parentRunId }),
        depth: run.depth,
        agentId: run.agentId,
        status: "running",
        startedAt: run.startedAt,
        usage: run.usage(),
      }),
    );
  return [...stored, ...unstored];
}

/** An autonomous goal's spend (its session's runs since the goal was set) against its budget. */
async function withGoalSpend(
  ctx: GatewayContext,
  sessions: readonly SessionRecord[],
  entry: AutonomousGoalEntry,
): Promise<AutonomousGoalEntry> {
  const session = sessions.find((s) => s.key === entry.sessionKey);
  const goal = session === undefined ? undefined : goalOf(session.settings);
  if (goal === undefined) return entry;
  const spent = spendOfRuns(runsOfGoal(await ctx.store.listRuns({ sessionKey: entry.sessionKey }), goal));
  const budgets = ctx.agents.get(entry.agentId)?.config.budgets;
  return {
    ...entry,
    spend: {
      ...spent,
      ...(budgets?.goalTokens === undefined ? {} : { budgetTokens: budgets.goalTokens }),
      ...(budgets?.goalCostUsd === undefined ? {} : { budgetCost: budgets.goalCostUsd }),
    },
  };
}

/**
 * Stops a run and every run below it; the affected chat is told. Contract: `killed` lists the stopped run ids,
 * the run itself first; empty when no such run is live in this process.
 */
export async function killRunTree(ctx: GatewayContext, runId: string): Promise<{ killed: string[] }> {
  const run = ctx.runs.get(runId);
  if (run === undefined) return { killed: [] };
  const killed = ctx.runs.killTree(runId, "stopped by an administrator");
  // A root run tells its chat itself (its end notice); for a sub-agent the root chat is told here.
  if (run.depth > 0) {
    const session = await ctx.store.getSession(rootKeyOf(run.sessionKey));
    if (session !== undefined) {
      ctx.notices.post(
        session.key,
        sessionChatOf(session),
        `An administrator stopped a sub-agent task (${run.agentId}).`,
      );
    }
  }
  ctx.logger.info({ runId, killed }, "runs killed by an administrator");
  return { killed };
}
