import { usageViewOf } from "../budgets/usage-view.js";
import type { CommandHost, ModelSwitch, SessionStatus, StopOutcome } from "../commands/command-types.js";
import { runExtensionCommandHere } from "../commands/extension-commands.js";
import { GOAL_DEFAULTS } from "../config/goal-config.js";
import type { ExtensionReply } from "../extension/index.js";
import type { FleetView } from "../fleet/fleet-view.js";
import { allowedModels, isAllowedModel } from "../model-preference/model-preference.js";
import { sessionChatOf } from "../routing/session-chat-of.js";
import { isSubagentKey } from "../session-key/session-key-lineage.js";
import { answerApprovalAnywhere } from "./approval-anywhere.js";
import { askOwner } from "./cluster-request-answers.js";
import { commandAtOwner } from "./command-at-owner.js";
import { compactHere } from "./compact-here.js";
import type { GatewayContext } from "./gateway-context.js";
import { controlGoalAtOwner, controlGoalById, GOAL_CONTROL_PAST } from "./goal-control-by-id.js";
import { newSessionHere, setQueueModeHere, stopSessionHere, switchModelHere } from "./session-actions-here.js";
import { modelOf, statusHere } from "./session-status.js";

/** What the command host asks of the gateway beyond its context. */
export interface FleetControl {
  fleet(): Promise<FleetView>;
  killRun(runId: string): Promise<{ killed: string[]; instance?: string; unanswered?: boolean }>;
}

/**
 * The gateway side of the builtin commands (/new, /stop, /compact, /queue, /model, /status, /agents, /pair, approvals):
 * what each command does to sessions, the store and live runs. Contract: commands never run inside a session's turn;
 * /compact takes the session's lane, so messages arriving meanwhile wait for it.
 */
export function createCommandHost(ctx: GatewayContext, control: FleetControl): CommandHost {
  const { store, options } = ctx;
  const host: CommandHost = {
    pairing: ctx.pairing,
    newSession: async (key, by) => {
      const answer = await askOwner(ctx, { op: "new", sessionKey: key, ...(by === undefined ? {} : { by }) });
      return answer === undefined ? newSessionHere(ctx, key, by) : (answer.result as { refused?: string }).refused;
    },
    stopSession: async (key, by) => {
      const answer = await askOwner(ctx, { op: "stop", sessionKey: key, ...(by === undefined ? {} : { by }) });
      return answer === undefined ? stopSessionHere(ctx, key, by) : (answer.result as StopOutcome);
    },
    compactSession: (key) => commandAtOwner(ctx, { op: "compact", sessionKey: key }, () => compactHere(ctx, key), told),
    setQueueMode: async (key, mode) => {
      if ((await askOwner(ctx, { op: "queue", sessionKey: key, mode })) === undefined)
        await setQueueModeHere(ctx, key, mode);
    },
    currentModel: async (key) => (await modelOf(ctx, key)).id,
    knownModels: (agentId) => {
      const config = ctx.agents.get(agentId)?.config;
      return config === undefined ? [] : allowedModels(config);
    },
    switchModel: async (key, agentId, id): Promise<ModelSwitch> => {
      // Only the agent's allowed models, even where the provider would accept any id (an OpenAI-compatible server).
      const config = ctx.agents.get(agentId)?.config;
      if (config === undefined || !isAllowedModel(options.models, config, id)) {
        return { ok: false, known: host.knownModels(agentId) };
      }
      const answer = await askOwner(ctx, { op: "model", sessionKey: key, modelId: id });
      return answer === undefined ? switchModelHere(ctx, key, id) : (answer.result as ModelSwitch);
    },
    status: async (key) => {
      // A session owned by another instance: its live state (queue, running) is there.
      const answer = await askOwner(ctx, { op: "status", sessionKey: key });
      const found = answer === undefined ? await statusHere(ctx, key) : (answer.result as SessionStatus);
      const fleet = ctx.store.ownership?.fleet;
      if (fleet === undefined) return found;
      const owner = answer?.from ?? (ctx.store.ownership?.fenceFor(key) === undefined ? undefined : fleet.self);
      return { ...found, instances: await fleet.instances(), ...(owner === undefined ? {} : { owner }) };
    },
    fleet: () => control.fleet(),
    agentInfo: async (agentId) => agentInfo(ctx, agentId),
    agentSessions: async (agentId) => {
      if (!ctx.agents.has(agentId)) return undefined;
      return (await store.listSessions({ agentId })).filter((s) => !isSubagentKey(s.key));
    },
    killRun: async (runId) => control.killRun(runId),
    answerApproval: (code, approve, by) => answerApprovalAnywhere(ctx, code, approve, by),
    extensionAtOwner: (name, context) =>
      commandAtOwner<string | ExtensionReply>(
        ctx,
        { op: "extension", sessionKey: context.sessionKey, name, context },
        () => runExtensionCommandHere(ctx.extensions.commands, name, context),
        told,
      ),
    agentCommands: (agentId) => ctx.agents.get(agentId)?.agentCommands ?? [],
    agentsSections: ctx.extensions.agentsSections,
    goalConfig: (agentId) => ctx.agents.get(agentId)?.config.goals ?? GOAL_DEFAULTS,
    goal: (request, caller) => {
      if (request.kind === "control") return controlGoalById(ctx, request, caller);
      // A refusal (bad arguments) is answered here; anything else may touch the goal's driver, at the owner.
      if (request.kind === "refused") return ctx.goals.command(request, caller);
      return commandAtOwner(
        ctx,
        { op: "goal", sessionKey: caller.sessionKey, request, caller },
        () => ctx.goals.command(request, caller),
        told,
      );
    },
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
      const outcome = await controlGoalAtOwner(ctx, action, caller);
      if (outcome.changed) {
        ctx.notices.post(
          key,
          sessionChatOf(session),
          `An administrator ${GOAL_CONTROL_PAST[action]} this chat's autonomous goal.`,
        );
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
        maxOutputOf: (agentId) => ctx.agents.get(agentId)?.config.maxOutputTokens,
        reservedOf: (agentId) => ctx.budgets.reservedToday(agentId),
      }),
  };
  return host;
}

/** A command's answer when its session's owner did not carry it out: the sentence itself. */
const told = (text: string): string => text;

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
