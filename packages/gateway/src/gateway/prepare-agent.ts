import type { AgentHooks, AnyAgentTool, Model, PreDispatchPolicy, RecentFilesSource, StreamFn } from "@chorus/core";
import type { OutboxEntry, SessionStore } from "@chorus/store";
import {
  createSubagents,
  createToolPolicyGate,
  evaluateToolPolicy,
  mergeToolGroups,
  type SubagentSlots,
  type Subagents,
  type ToolPolicy,
} from "@chorus/tools";
import { GatewayConfigError } from "../config/gateway-config-error.js";
import type { AgentConfig } from "../config/gateway-config-schema.js";
import { type AgentLoopFeatures, agentLoopFeatures } from "../context-features/agent-loop-features.js";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import type { AgentCommand } from "../extension/index.js";
import type { RunTracker } from "../fleet/run-tracker.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import { type GatewayChildRunnerOptions, gatewayChildRunner } from "../subagent-sessions/gateway-child-runner.js";
import { subagentEventPublisher, subagentResultDeliverer } from "../subagent-sessions/subagent-bridge.js";
import { type ExtensionAgentParts, NO_EXTENSION_PARTS } from "./extension-agent-parts.js";
import type { AgentRuntimeSetup, GatewayOptions, ModelCatalog } from "./gateway-options.js";

/** One configured agent, ready to build `Agent`s from: model, tools, call-time policies and sub-agents. */
export interface PreparedAgent {
  readonly config: AgentConfig;
  readonly defaultModel: Model;
  readonly tools: readonly AnyAgentTool[];
  /** Depth deny-lists, the trust-tier gate (with the agent's tool policy) and the group's tool policy. */
  readonly policies: readonly PreDispatchPolicy[];
  readonly subagents: Subagents | undefined;
  /** The `/words` the agent answers itself (its extensions' `agentCommands`). */
  readonly agentCommands: readonly AgentCommand[];
  /** The operator's hooks (AgentRuntimeSetup.hooks); undefined: none. */
  readonly hooks: AgentHooks | undefined;
  /** TACO, context restoration and the per-turn execution context, over the gateway-wide loop settings. */
  readonly loopFeatures: AgentLoopFeatures;
  /** The files each session read (AgentRuntimeSetup.recentFiles): the changed_files reminder watches them. */
  readonly recentFiles: RecentFilesSource | undefined;
}

/** What prepareAgent needs from the gateway. */
export interface PrepareAgentDeps {
  models: ModelCatalog;
  streamFn: StreamFn;
  store: SessionStore;
  events: GatewayEventBus;
  runs: RunTracker;
  logger: GatewayLogger;
  now: () => number;
  slots: SubagentSlots;
  loop: GatewayOptions["loop"];
  /** Receives sub-agent result entries to deliver. */
  onEnqueued(entries: readonly OutboxEntry[]): void;
  subagentEnded: NonNullable<GatewayChildRunnerOptions["ended"]>;
}

/**
 * Builds an agent's runtime pieces once. The tier comes from `run.meta.trustTier` and the group's tool policy from
 * `run.meta.groupToolPolicy`, both set per turn, so the policy applies at call time to whoever is asking.
 * Contract: throws GatewayConfigError when the agent's model is unknown.
 */
export function prepareAgent(
  config: AgentConfig,
  setup: AgentRuntimeSetup | undefined,
  deps: PrepareAgentDeps,
  extensions: ExtensionAgentParts = NO_EXTENSION_PARTS,
): PreparedAgent {
  const model = deps.models.find(config.model);
  if (model === undefined) {
    const known = deps.models.list().map((m) => m.id);
    throw new GatewayConfigError([
      {
        path: `agents.${config.id}.model`,
        message: `unknown model ${JSON.stringify(config.model)}; known models: ${known.join(", ") || "(none)"}`,
      },
    ]);
  }
  // Checked here, with the agent's other models, so a typo fails the start (the goals' extension resolves it by id).
  const supervisorId = config.goals.supervisorModel;
  if (supervisorId !== undefined && deps.models.find(supervisorId) === undefined) {
    const known = deps.models.list().map((m) => m.id);
    throw new GatewayConfigError([
      {
        path: `agents.${config.id}.goals.supervisorModel`,
        message: `unknown model ${JSON.stringify(supervisorId)}; known models: ${known.join(", ") || "(none)"}`,
      },
    ]);
  }
  const loopFeatures = agentLoopFeatures(config, setup, deps.models, deps.loop);
  const groups = mergeToolGroups(setup?.toolGroups);
  const tierGate = createToolPolicyGate({
    ...(config.toolPolicy === undefined ? {} : { policy: toToolPolicy(config.toolPolicy) }),
    ...(setup?.toolGroups === undefined ? {} : { groups: setup.toolGroups }),
    ...(setup?.tiers === undefined ? {} : { tiers: setup.tiers }),
  });
  const groupGate: PreDispatchPolicy = (request) => {
    const policy = request.run.meta?.groupToolPolicy as ToolPolicy | undefined;
    if (policy === undefined) return { kind: "allow" };
    const verdict = evaluateToolPolicy(policy, request.toolCall.name, groups);
    return verdict.allowed ? { kind: "allow" } : { kind: "deny", reason: verdict.reason };
  };
  const profiles = setup?.subagents;
  let subagents: Subagents | undefined;
  if (profiles !== undefined && Object.keys(profiles).length > 0) {
    const runner = gatewayChildRunner({
      store: deps.store,
      events: deps.events,
      runs: deps.runs,
      logger: deps.logger,
      model,
      streamFn: deps.streamFn,
      now: deps.now,
      ...(deps.loop === undefined ? {} : { loop: deps.loop }),
      ended: deps.subagentEnded,
    });
    subagents = createSubagents({
      agents: { ...profiles },
      runChild: runner,
      limits: {
        maxSpawnDepth: config.subagents.maxSpawnDepth,
        maxChildrenPerRun: config.subagents.maxChildrenPerRun,
        maxConcurrentSubagents: config.subagents.maxConcurrent,
      },
      // The agent's own call-time policies bind its sub-agents too: a child cannot ask, so a call the agent's
      // approval policy would ask about is refused in a child rather than run unasked.
      childPolicies: [tierGate, groupGate, ...(setup?.policies ?? [])],
      deliver: subagentResultDeliverer({
        store: deps.store,
        runs: deps.runs,
        trustOf: runner.takeTrust,
        onEnqueued: deps.onEnqueued,
      }),
      onEvent: subagentEventPublisher({ events: deps.events, runs: deps.runs, now: deps.now }),
      slots: deps.slots,
      model,
      streamFn: deps.streamFn,
      ...(setup?.toolGroups === undefined ? {} : { groups: setup.toolGroups }),
    });
  }
  const prompt = [...(config.systemPrompt === undefined ? [] : [config.systemPrompt]), ...extensions.prompts];
  return {
    config: extensions.prompts.length === 0 ? config : { ...config, systemPrompt: prompt.join("\n\n") },
    defaultModel: model,
    tools: [...(setup?.tools ?? []), ...extensions.tools, ...(subagents?.tools ?? [])],
    policies: [
      ...(subagents === undefined ? [] : [subagents.depthPolicy]),
      ...extensions.policies,
      tierGate,
      groupGate,
      ...(setup?.policies ?? []),
    ],
    subagents,
    hooks: setup?.hooks,
    agentCommands: extensions.agentCommands,
    loopFeatures,
    recentFiles: setup?.recentFiles,
  };
}

function toToolPolicy(config: { allow?: string[] | undefined; deny?: string[] | undefined }): ToolPolicy {
  return {
    ...(config.allow === undefined ? {} : { allow: config.allow }),
    ...(config.deny === undefined ? {} : { deny: config.deny }),
  };
}
