import type { QueueMode } from "@chorus/store";
import type { ModelSwitch, StopOutcome } from "../commands/command-types.js";
import {
  effectiveContextWindow,
  forgetLastCompaction,
  storeSessionContext,
} from "../compaction/session-context-record.js";
import { endRefusalOf, runSessionEnding, runSessionStopped } from "../extension/index.js";
import { allowedModels, isAllowedModel } from "../model-preference/model-preference.js";
import type { SessionActor, StopBy } from "../permissions/session-change-permission.js";
import type { GatewayContext } from "./gateway-context.js";

/**
 * /new in this process: stops the session's run, clears its queue, drops its Agent, and starts the transcript afresh.
 * `by` (a person; none for the gateway's own, e.g. a schedule's fresh start) must not be refused by an extension (e.g.
 * the chat's autonomous goal, which only whoever started it or an admin ends). Contract: the store is reset even when the session has no live state here; resolves with the
 * refusal (nothing changed) or undefined.
 */
export async function newSessionHere(ctx: GatewayContext, key: string, by?: SessionActor): Promise<string | undefined> {
  if (by !== undefined) {
    const refusal = await endRefusalOf(ctx.extensions, key, by, ctx.logger);
    if (refusal !== undefined) return refusal;
  }
  const runtime = ctx.sessions.get(key);
  if (runtime !== undefined) {
    runtime.lane.clear();
    runtime.stop("user", "a new conversation was started");
    await runtime.settled();
    runtime.dropAgent();
    runtime.lastCompaction = undefined;
  }
  // Extensions hear it while the conversation is still in the transcript (memory's extraction pass reads it now).
  const agentId = runtime?.agentId ?? (await ctx.store.getSession(key))?.agentId;
  if (agentId !== undefined) await runSessionEnding(ctx.extensions, { sessionKey: key, agentId }, ctx.logger);
  await ctx.store.resetTranscript(key);
  await forgetLastCompaction(ctx.store, key);
  return undefined;
}

/**
 * /stop in this process: the run and its sub-agents, the queue; a running autonomous goal pauses first. With `by`
 * of scope `own` (or an autonomous goal someone else started), only what `by` started: their waiting messages and a
 * run only their messages started — never the goal or another person's run.
 */
export async function stopSessionHere(ctx: GatewayContext, key: string, by?: StopBy): Promise<StopOutcome> {
  const goalIsTheirs = by === undefined || (await endRefusalOf(ctx.extensions, key, by, ctx.logger)) === undefined;
  if (by !== undefined && (by.scope === "own" || !goalIsTheirs)) {
    return { ...stopOwnHere(ctx, key, by), ...(goalIsTheirs ? {} : { goalKept: true }) };
  }
  // A running autonomous goal pauses first, so that it queues no next turn.
  const paused = await runSessionStopped(ctx.extensions, key, ctx.logger);
  const runtime = ctx.sessions.get(key);
  if (runtime === undefined) return { stopped: paused, dropped: 0 };
  const dropped = runtime.lane.clear().length;
  return { stopped: runtime.stop("user", "stopped by the user") || paused, dropped };
}

/** What one person started: their waiting messages, and the run when only their messages started it. */
function stopOwnHere(ctx: GatewayContext, key: string, by: SessionActor): StopOutcome {
  const runtime = ctx.sessions.get(key);
  if (runtime === undefined) return { stopped: false, dropped: 0 };
  const dropped = runtime.lane.withdraw((item) => item.source !== "goal" && item.senderId === by.senderId);
  const starters = runtime.runStarterIds ?? [];
  const theirs = starters.length > 0 && starters.every((id) => id === by.senderId);
  return { stopped: theirs && runtime.stop("user", "stopped by the user"), dropped };
}

/**
 * /model <id> in this process: remembered in the store (unless the agent's `modelPersistence` is false: then only in
 * this process's runtime of the session), and the live session switches.
 */
export async function switchModelHere(ctx: GatewayContext, key: string, id: string): Promise<ModelSwitch> {
  const session = await ctx.store.getSession(key);
  const config = session === undefined ? undefined : ctx.agents.get(session.agentId)?.config;
  // Checked again where the session lives: a model the agent does not allow is never stored, whoever forwarded it.
  if (config === undefined || !isAllowedModel(ctx.options.models, config, id)) {
    return { ok: false, known: config === undefined ? [] : allowedModels(config) };
  }
  const model = ctx.options.models.find(id);
  if (model === undefined) return { ok: false, known: allowedModels(config) };
  if (session !== undefined && ctx.agents.get(session.agentId)?.config.modelPersistence === false) {
    ctx.sessions.runtimeFor(session).setModel(model.id);
    return { ok: true, model: model.id };
  }
  await ctx.store.updateSession(key, { modelOverride: model.id });
  // The new window goes with the session too (seed 002: published on every model switch), for /status anywhere.
  await storeSessionContext(ctx.store, key, { contextMaxTokens: effectiveContextWindow(ctx.options.loop, model) });
  ctx.sessions.get(key)?.setModel(model.id);
  return { ok: true, model: model.id };
}

/** /queue <mode> in this process: remembered in the store, and the live lane switches. */
export async function setQueueModeHere(ctx: GatewayContext, key: string, mode: QueueMode): Promise<void> {
  await ctx.store.updateSession(key, { queueModeOverride: mode });
  const runtime = ctx.sessions.get(key);
  if (runtime !== undefined) runtime.lane.mode = mode;
}
