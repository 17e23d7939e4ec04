import { isSubagentKey } from "@chorus/store";
import type { CommandHost, ModelSwitch, SessionStatus, StopOutcome } from "../commands/command-types.js";
import { runExtensionCommandHere } from "../commands/extension-commands.js";
import type { ExtensionReply } from "../extension/index.js";
import type { FleetView } from "../fleet/fleet-view.js";
import { allowedModels, isAllowedModel } from "../model-preference/model-preference.js";
import { answerApprovalAnywhere } from "./approval-anywhere.js";
import { askOwner } from "./cluster-request-answers.js";
import { commandAtOwner } from "./command-at-owner.js";
import { compactHere } from "./compact-here.js";
import type { GatewayContext } from "./gateway-context.js";
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
    now: () => ctx.now(),
    agentCommands: (agentId) => ctx.agents.get(agentId)?.agentCommands ?? [],
    agentsSections: ctx.extensions.agentsSections,
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
