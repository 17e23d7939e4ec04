import { emptyUsage } from "@chorus/core";
import {
  type ClusterInstance,
  isSubagentKey,
  type RunRecord,
  rootKeyOf,
  type SessionRecord,
  utcDay,
} from "@chorus/store";
import { placeRuns } from "../fleet/cluster-placement.js";
import { buildFleetView, type FleetView } from "../fleet/fleet-view.js";
import type { LiveRun } from "../fleet/run-tracker.js";
import { sessionChatOf } from "../routing/session-chat-of.js";
import type { GatewayContext } from "./gateway-context.js";

/** The fleet as /agents shows it: agents, their sessions, running runs (stored and live). */
export async function fleetOf(ctx: GatewayContext): Promise<FleetView> {
  const instances = await ctx.store.ownership?.fleet?.instances();
  const runs = withReportedRuns(
    withLiveRuns(await ctx.store.listRuns({ status: "running" }), ctx.runs.all()),
    instances ?? [],
  );
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
    ...(instances === undefined ? {} : { cluster: { instances, placement: placeRuns(instances, ctx.runs) } }),
    now: ctx.now(),
  });
  return { ...view, today: await spentToday(ctx) };
}

/** Every agent's spend today (UTC) as the ledger holds it (in a cluster, every instance's). */
async function spentToday(ctx: GatewayContext): Promise<{ tokens: number; cost: number }> {
  const day = utcDay(ctx.now());
  const rows = await ctx.store.listSpend({ kind: "agent", fromPeriod: day, toPeriod: day });
  return rows.reduce((sum, row) => ({ tokens: sum.tokens + row.tokens, cost: sum.cost + row.cost }), {
    tokens: 0,
    cost: 0,
  });
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

/**
 * Also the runs other instances reported live at their last heartbeat but not stored yet (a turn's run is written by
 * its first commit), so /agents on any instance shows a run from its start. A report without the run's identity
 * (an older instance) adds nothing.
 */
function withReportedRuns(known: readonly RunRecord[], instances: readonly ClusterInstance[]): RunRecord[] {
  const ids = new Set(known.map((run) => run.id));
  const reported: RunRecord[] = [];
  for (const instance of instances) {
    if (instance.self) continue;
    for (const run of instance.runs) {
      const { sessionKey, agentId, depth, startedAt } = run;
      if (ids.has(run.runId) || sessionKey === undefined || agentId === undefined) continue;
      if (depth === undefined || startedAt === undefined) continue;
      ids.add(run.runId);
      reported.push({
        id: run.runId,
        sessionKey,
        ...(run.parentRunId === undefined ? {} : { parentRunId: run.parentRunId }),
        depth,
        agentId,
        status: "running",
        startedAt,
        // Its usage as reported is what the fleet shows (the placement carries it).
        usage: emptyUsage(),
      });
    }
  }
  return [...known, ...reported];
}

/**
 * Stops a run and every run below it, in this process or (a cluster) in the instance where it lives; the affected
 * chat is told. Contract: `killed` lists the stopped run ids, the run itself first; empty when no instance answered
 * that it holds the run (`unanswered` then says whether the store still has it running: its instance is gone or
 * cut off); `instance` names the instance that stopped it when it was another one.
 */
export async function killRunTree(
  ctx: GatewayContext,
  runId: string,
): Promise<{ killed: string[]; instance?: string; unanswered?: boolean }> {
  if (ctx.runs.get(runId) !== undefined || ctx.cluster === undefined) return killRunHere(ctx, runId);
  const answer = await ctx.cluster.ask({ op: "kill", runId });
  if (answer === undefined) {
    const stored = await ctx.store.getRun(runId);
    return stored?.status === "running" ? { killed: [], unanswered: true } : { killed: [] };
  }
  const { killed } = answer.result as { killed: string[] };
  ctx.logger.info({ runId, killed, instance: answer.from }, "runs killed in another instance by an administrator");
  return { killed, instance: answer.from };
}

/** `killRunTree` for a run of this process. Contract: `killed` is empty when no such run is live here. */
export async function killRunHere(ctx: GatewayContext, runId: string): Promise<{ killed: string[] }> {
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
