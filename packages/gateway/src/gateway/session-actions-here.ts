import type { ModelSwitch } from "../commands/command-types.js";
import { forgetStoredSubgoals } from "../compaction/session-subgoals.js";
import type { QueueMode } from "../config/gateway-config-schema.js";
import type { GatewayContext } from "./gateway-context.js";

/**
 * /new in this process: stops the session's run, clears its queue, drops its Agent, and starts the transcript afresh.
 * Contract: the store is reset even when the session has no live state here.
 */
export async function newSessionHere(ctx: GatewayContext, key: string): Promise<void> {
  const runtime = ctx.sessions.get(key);
  if (runtime !== undefined) {
    runtime.lane.clear();
    runtime.stop("user", "a new conversation was started");
    await runtime.settled();
    runtime.dropAgent();
    runtime.resetSubgoals();
  } else {
    await forgetStoredSubgoals(ctx.store, key);
  }
  // The extraction pass reads the conversation before it leaves the transcript (its model call runs in the background).
  await ctx.memory?.sessionEnding(key);
  await ctx.store.resetTranscript(key);
  await ctx.goals.sessionReset(key);
}

/** /stop in this process: the run and its sub-agents, the queue; a running autonomous goal pauses first. */
export async function stopSessionHere(
  ctx: GatewayContext,
  key: string,
): Promise<{ readonly stopped: boolean; readonly dropped: number }> {
  // A running autonomous goal pauses first, so that it queues no next turn.
  const paused = await ctx.goals.sessionStopped(key);
  const runtime = ctx.sessions.get(key);
  if (runtime === undefined) return { stopped: paused, dropped: 0 };
  const dropped = runtime.lane.clear().length;
  return { stopped: runtime.stop("user", "stopped by the user") || paused, dropped };
}

/**
 * /model <id> in this process: remembered in the store (unless the agent's `modelPersistence` is false: then only in
 * this process's runtime of the session), and the live session switches.
 */
export async function switchModelHere(ctx: GatewayContext, key: string, id: string): Promise<ModelSwitch> {
  const model = ctx.options.models.find(id);
  if (model === undefined) return { ok: false, known: ctx.options.models.list().map((known) => known.id) };
  const session = await ctx.store.getSession(key);
  if (session !== undefined && ctx.agents.get(session.agentId)?.config.modelPersistence === false) {
    ctx.sessions.runtimeFor(session).setModel(model.id);
    return { ok: true, model: model.id };
  }
  await ctx.store.updateSession(key, { modelOverride: model.id });
  ctx.sessions.get(key)?.setModel(model.id);
  return { ok: true, model: model.id };
}

/** /queue <mode> in this process: remembered in the store, and the live lane switches. */
export async function setQueueModeHere(ctx: GatewayContext, key: string, mode: QueueMode): Promise<void> {
  await ctx.store.updateSession(key, { queueModeOverride: mode });
  const runtime = ctx.sessions.get(key);
  if (runtime !== undefined) runtime.lane.mode = mode;
}
