import {
  DEFAULT_SUMMARY_PROMPT,
  defaultConvertToLlm,
  estimateTokens,
  type Model,
  summarizeOlderMessages,
} from "@chorus/core";
import { usageViewOf } from "../budgets/usage-view.js";
import type { CommandHost, ModelSwitch, SessionStatus } from "../commands/command-types.js";
import type { QueueMode } from "../config/gateway-config-schema.js";
import { restoreAfterCompact } from "../context-features/restore-after-compact.js";
import type { FleetView } from "../fleet/fleet-view.js";
import { GOAL_DEFAULTS } from "../goals/goal-config.js";
import { findChosenModel, restoredModelChoice } from "../model-preference/model-preference.js";
import { isSubagentKey } from "../session-key/session-key-lineage.js";
import type { GatewayContext } from "./gateway-context.js";
import { sessionChatOf } from "./session-chat.js";

const PAST = { stop: "stopped", pause: "paused", resume: "resumed" } as const;

/** Tokens kept verbatim by /compact. */
const COMPACT_KEEP_RECENT_TOKENS = 4_000;

/** What the command host asks of the gateway beyond its context. */
export interface FleetControl {
  fleet(): Promise<FleetView>;
  killRun(runId: string): Promise<{ killed: string[] }>;
}

/**
 * The gateway side of the builtin commands (/new, /stop, /compact, /queue, /model, /status, /agents, /pair, approvals):
 * what each command does to sessions, the store and live runs. Contract: commands never run inside a session's turn;
 * /compact takes the session's lane, so messages arriving meanwhile wait for it.
 */
export function createCommandHost(ctx: GatewayContext, control: FleetControl): CommandHost {
  const { store, sessions, options } = ctx;
  const host: CommandHost = {
    pairing: ctx.pairing,
    newSession: async (key) => {
      const runtime = sessions.get(key);
      if (runtime !== undefined) {
        runtime.lane.clear();
        runtime.stop("user", "a new conversation was started");
        await runtime.settled();
        runtime.dropAgent();
      }
      await store.resetTranscript(key);
      await ctx.goals.sessionReset(key);
    },
    stopSession: async (key) => {
      // A running autonomous goal pauses first, so that it queues no next turn.
      const paused = await ctx.goals.sessionStopped(key);
      const runtime = sessions.get(key);
      if (runtime === undefined) return { stopped: paused, dropped: 0 };
      const dropped = runtime.lane.clear().length;
      return { stopped: runtime.stop("user", "stopped by the user") || paused, dropped };
    },
    compactSession: (key) => compact(ctx, key),
    setQueueMode: async (key, mode) => {
      await store.updateSession(key, { queueModeOverride: mode });
      const runtime = sessions.get(key);
      if (runtime !== undefined) runtime.lane.mode = mode;
    },
    currentModel: async (key) => (await modelOf(ctx, key)).id,
    knownModels: () => options.models.list().map((model) => model.id),
    switchModel: async (key, id): Promise<ModelSwitch> => {
      const model = options.models.find(id);
      if (model === undefined) return { ok: false, known: host.knownModels() };
      const session = await store.getSession(key);
      if (session !== undefined && ctx.agents.get(session.agentId)?.config.modelPersistence === false) {
        // Not kept: the choice lives in this process's runtime of the session only.
        sessions.runtimeFor(session).setModel(model.id);
        return { ok: true, model: model.id };
      }
      await store.updateSession(key, { modelOverride: model.id });
      sessions.get(key)?.setModel(model.id);
      return { ok: true, model: model.id };
    },
    status: (key) => status(ctx, key),
    fleet: () => control.fleet(),
    agentInfo: async (agentId) => agentInfo(ctx, agentId),
    agentSessions: async (agentId) => {
      if (!ctx.agents.has(agentId)) return undefined;
      return (await store.listSessions({ agentId })).filter((s) => !isSubagentKey(s.key));
    },
    killRun: async (runId) => control.killRun(runId),
    answerApproval: (code, approve, by) => ctx.approvals.answer(code, approve, by),
    goalConfig: (agentId) => ctx.agents.get(agentId)?.config.goals ?? GOAL_DEFAULTS,
    goal: (request, caller) => ctx.goals.command(request, caller),
    controlGoal: async (key, action, adminId) => {
      const session = await store.getSession(key);
      if (session === undefined || isSubagentKey(key)) return `No session "${key}".`;
      const caller = {
        sessionKey: key,
        agentId: session.agentId,
        senderId: adminId,
        isAdmin: true,
        trust: "owner" as const,
      };
      const outcome = await ctx.goals.control(action, caller);
      if (outcome.changed) {
        ctx.notices.post(key, sessionChatOf(session), `An administrator ${PAST[action]} this chat's autonomous goal.`);
      }
      return outcome.text;
    },
    now: () => ctx.now(),
    createSchedule: (request, caller) => ctx.schedules.create(request, caller),
    schedules: () => ctx.schedules.entries(),
    stopSchedule: (id) => ctx.schedules.stop(id),
    usage: () =>
      usageViewOf({
        store,
        now: ctx.now(),
        agents: new Map([...ctx.agents].map(([id, prepared]) => [id, prepared.config.budgets])),
        userDays: ctx.budgets.userDays(),
      }),
  };
  return host;
}

async function modelOf(ctx: GatewayContext, key: string): Promise<Model> {
  const runtime = ctx.sessions.get(key);
  if (runtime !== undefined) return runtime.model;
  const session = await ctx.store.getSession(key);
  const prepared = session === undefined ? undefined : ctx.agents.get(session.agentId);
  const override =
    session === undefined
      ? undefined
      : findChosenModel(ctx.options.models, restoredModelChoice(prepared?.config, session));
  return override ?? prepared?.defaultModel ?? ctx.agents.values().next().value!.defaultModel;
}

async function status(ctx: GatewayContext, key: string): Promise<SessionStatus> {
  const session = await ctx.store.getSession(key);
  const runtime = session === undefined ? undefined : ctx.sessions.runtimeFor(session);
  const transcript = runtime?.agent?.state.messages ?? (await ctx.store.readTranscript(key)).map((e) => e.message);
  const runs = await ctx.store.listRuns({ sessionKey: key });
  let cost = 0;
  for (const run of runs) cost += ctx.runs.get(run.id)?.usage().cost.total ?? run.usage.cost.total;
  const stored = session?.settings.lastCompaction as { before: number; after: number } | undefined;
  const lastCompaction = runtime?.lastCompaction ?? stored;
  const result: SessionStatus = {
    agentId: session?.agentId ?? "?",
    model: (await modelOf(ctx, key)).id,
    contextTokens: estimateTokens(transcript),
    cost,
    queueMode: (runtime?.lane.mode ?? "steer") as QueueMode,
    queued: runtime?.lane.queued ?? 0,
    running: runtime?.currentRunId !== undefined,
  };
  if (runtime !== undefined && !runtime.lane.busy) ctx.sessions.onIdle(runtime);
  return lastCompaction === undefined ? result : { ...result, lastCompaction };
}

async function compact(ctx: GatewayContext, key: string): Promise<string> {
  const session = await ctx.store.getSession(key);
  if (session === undefined) return "Nothing to compact yet.";
  const runtime = ctx.sessions.runtimeFor(session);
  if (runtime.lane.busy) return "I am working on something; try /compact when I am done.";
  // A lane item: a message arriving during the summary call waits for it instead of racing it.
  return runtime.lane.runExclusive(async () => {
    const agent = await runtime.loadAgent();
    const before = estimateTokens(agent.state.messages);
    const outcome = await summarizeOlderMessages({
      messages: agent.state.messages,
      keepRecentTokens: COMPACT_KEEP_RECENT_TOKENS,
      convert: defaultConvertToLlm,
      complete: (context) => ctx.options.streamFn(runtime.model, context).result(),
      prompt: DEFAULT_SUMMARY_PROMPT,
    });
    if (!outcome.ok) return `Nothing was compacted (${outcome.error}).`;
    const restoration = ctx.agents.get(session.agentId)?.loopFeatures.context?.restoration;
    const compacted = await restoreAfterCompact(restoration, key, outcome.messages);
    agent.replaceMessages(compacted);
    const after = estimateTokens(compacted);
    runtime.lastCompaction = { before, after };
    // Messages that arrived during the summary call are stored already; they stay after the fresh start.
    const waiting = runtime.lane.waitingItems().map((item) => item.message);
    await ctx.store.transaction(async (tx) => {
      await tx.resetTranscript(key);
      await tx.appendMessages(key, [...compacted, ...waiting]);
      // Settings are read again here: others (the goal) may have changed since the summary started.
      const settings = (await tx.getSession(key))?.settings ?? session.settings;
      await tx.updateSession(key, { settings: { ...settings, lastCompaction: { before, after } } });
    });
    return `Compacted the conversation: ~${before} → ~${after} tokens.`;
  });
}

function agentInfo(ctx: GatewayContext, agentId: string): string | undefined {
  const prepared = ctx.agents.get(agentId);
  if (prepared === undefined) return undefined;
  const { config } = prepared;
  const bindings = ctx.config.bindings.filter((b) => b.agentId === agentId).length;
  const live = ctx.runs.all().filter((run) => run.agentId === agentId && run.depth === 0).length;
  const lines = [
    `**${config.id}** · model ${config.model} · ${bindings} binding(s) · ${live} running run(s)`,
    `Tools: ${prepared.tools.map((tool) => tool.name).join(", ") || "none"}`,
    `Sub-agents: depth ≤ ${config.subagents.maxSpawnDepth}, ≤ ${config.subagents.maxChildrenPerRun} per run, ≤ ${config.subagents.maxConcurrent} at once`,
  ];
  if (config.toolPolicy !== undefined) lines.push(`Tool policy: ${JSON.stringify(config.toolPolicy)}`);
  if (config.systemPrompt !== undefined) lines.push(`System prompt: ${config.systemPrompt.slice(0, 200)}`);
  return lines.join("\n");
}
