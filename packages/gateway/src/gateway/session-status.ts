import { estimateTokens, type Model } from "@chorus/core";
import type { QueueMode } from "@chorus/store";
import type { SessionStatus } from "../commands/command-types.js";
import {
  effectiveContextWindow,
  storedContextMaxTokens,
  storedLastCompaction,
} from "../compaction/session-context-record.js";
import { statusLinesOf } from "../extension/index.js";
import { findChosenModel, restoredModelChoice } from "../model-preference/model-preference.js";
import type { GatewayContext } from "./gateway-context.js";

/**
 * The model a session uses now: its live runtime's, else its stored override (when the agent restores choices and the
 * catalog still has it), else its agent's default.
 */
export async function modelOf(ctx: GatewayContext, key: string): Promise<Model> {
  const runtime = ctx.sessions.get(key);
  if (runtime !== undefined) return runtime.model;
  const session = await ctx.store.getSession(key);
  const prepared = session === undefined ? undefined : ctx.agents.get(session.agentId);
  const override =
    session === undefined
      ? undefined
      : findChosenModel(ctx.options.models, restoredModelChoice(prepared?.config, session, ctx.options.models));
  return override ?? prepared?.defaultModel ?? ctx.agents.values().next().value!.defaultModel;
}

/**
 * /status of a session in this process: agent, model, context, cost, queue, whether a run is going, last compaction.
 * Contract: read-only apart from creating the session's runtime (released again when idle).
 */
export async function statusHere(ctx: GatewayContext, key: string): Promise<SessionStatus> {
  const session = await ctx.store.getSession(key);
  const runtime = session === undefined ? undefined : ctx.sessions.runtimeFor(session);
  const transcript = runtime?.agent?.state.messages ?? (await ctx.store.readTranscript(key)).map((e) => e.message);
  const runs = await ctx.store.listRuns({ sessionKey: key });
  let cost = 0;
  for (const run of runs) cost += ctx.runs.get(run.id)?.usage().cost.total ?? run.usage.cost.total;
  const settings = session?.settings ?? {};
  const lastCompaction = runtime?.lastCompaction ?? storedLastCompaction(settings);
  const model = await modelOf(ctx, key);
  const window = effectiveContextWindow(ctx.options.loop, model);
  // Asked here, where the session's turns run (a cluster forwards /status to the owner): its live state is here.
  const asked = session && { sessionKey: key, agentId: session.agentId, settings };
  const lines = asked === undefined ? [] : await statusLinesOf(ctx.extensions, asked, ctx.logger);
  const result: SessionStatus = {
    agentId: session?.agentId ?? "?",
    model: model.id,
    // The transcript alone, in memory or stored: the system prompt is only at hand while the agent is loaded, and
    // counting it then would make the figure jump as the session is released and taken up again.
    contextTokens: estimateTokens(transcript),
    // The window the next turn works against; the stored one when the catalog does not know the model's.
    contextMaxTokens: window > 0 ? window : (storedContextMaxTokens(settings) ?? 0),
    cost,
    queueMode: (runtime?.lane.mode ?? "steer") as QueueMode,
    queued: runtime?.lane.queued ?? 0,
    running: runtime?.currentRunId !== undefined,
    ...(lines.length === 0 ? {} : { extensionLines: lines }),
  };
  if (runtime !== undefined && !runtime.lane.busy) ctx.sessions.onIdle(runtime);
  return lastCompaction === undefined ? result : { ...result, lastCompaction };
}
