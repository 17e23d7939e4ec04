import { resolve } from "node:path";
import type { StreamFn } from "@chorus/core";
import type { GatewayMemoryOptions } from "@chorus/extension-memory";
import type { GatewayTelemetryOptions } from "@chorus/gateway";
import {
  type Channel,
  type ChannelPolicyEntryInput,
  Gateway,
  type GatewayEventBus,
  type InboundMessage,
  type SessionStore,
} from "@chorus/gateway";
import type { Logger } from "pino";
import type { BotConfig } from "../config/bot-config-schema.js";
import { gatewayConfigOf } from "../config/gateway-config-of.js";
import { DEMO_MODEL_REF } from "../demo/demo-model.js";
import { ensureDemoWorkspace } from "../demo/demo-workspace.js";
import { mcpExtension } from "../mcp/mcp-extension.js";
import { openAgentMcpServers } from "../mcp/open-agent-mcp-servers.js";
import { buildBotStreamFn } from "../models/bot-stream-fn.js";
import { buildModelRegistry } from "../models/model-reference.js";
import { skillRouterOfConfig } from "../skill-router/skill-router-of-config.js";
import { agentSetupsOf } from "./agent-setup.js";
import { agentSkillsOf } from "./agent-skills.js";
import { agentWorkspacesOf, prepareAgentWorkspaces } from "./agent-workspaces.js";
import { botExtensions } from "./bot-extensions.js";
import { assertHooksOutsideWorkspaces } from "./hook-placement.js";
import { botModelCatalog } from "./model-catalog.js";
import { openMemoryStore } from "./open-memory.js";
import { sessionEndHooksExtension } from "./session-end-hooks.js";

/** What a Gateway is built from, besides the configuration. */
export interface GatewayParts {
  readonly store: SessionStore;
  readonly channels: readonly Channel[];
  readonly events: GatewayEventBus;
  readonly logger: Logger;
  readonly selfIds: Readonly<Record<string, string>>;
  /** Base for the config's relative paths. */
  readonly cwd: string;
  readonly demoTokenDelayMs?: number;
  readonly wrapStreamFn?: (streamFn: StreamFn) => StreamFn;
  readonly extraPolicies?: readonly ChannelPolicyEntryInput[];
  readonly outboxPollMs?: number;
  /** Admins beyond the configured ones (WebChat's local browsers). */
  readonly isAdmin?: (message: InboundMessage) => boolean;
  /** Long-term memory, opened once by the runtime (`memory:` in the config). */
  readonly memory?: GatewayMemoryOptions;
  /** Spans' session keys and content capture (from the OTEL_* environment). */
  readonly telemetry?: GatewayTelemetryOptions;
}

/**
 * A Gateway for one configuration: models and providers, each agent's tools on its own workspace
 * (`<dataDir>/workspaces/<agent>` unless configured; a demo agent's is seeded with the demo files), saved tool outputs
 * per session in `<dataDir>/outputs`, channels and policies. Not started.
 * Contract: throws GatewayConfigError when the configuration does not hold together.
 */
export async function buildGateway(config: BotConfig, parts: GatewayParts): Promise<Gateway> {
  const workspaces = await agentWorkspacesOf(config, parts.cwd);
  const moved = await prepareAgentWorkspaces(workspaces);
  assertHooksOutsideWorkspaces(config, workspaces);
  if (workspaces.legacyAgent !== undefined) {
    parts.logger.info(
      { agentId: workspaces.legacyAgent, workspace: workspaces.byAgent[workspaces.legacyAgent] },
      "the default agent keeps the shared workspace of an earlier install; other agents get their own",
    );
  }
  if (workspaces.legacyUnused !== undefined) {
    parts.logger.warn(
      { folder: workspaces.legacyUnused },
      "the shared workspace of an earlier install is used by no agent now; name it as an agent's workspace (a path) to keep using it",
    );
  }
  if (moved.length > 0) {
    parts.logger.warn({ folders: moved, to: workspaces.outputsRoot }, "moved saved tool outputs out of the workspace");
  }
  for (const agent of config.agents) {
    const root = workspaces.byAgent[agent.id];
    if (agent.model === DEMO_MODEL_REF && root !== undefined) await ensureDemoWorkspace(root);
  }
  const built = buildBotStreamFn(
    config,
    parts.demoTokenDelayMs === undefined ? {} : { tokenDelayMs: parts.demoTokenDelayMs },
  );
  const gatewayConfig = gatewayConfigOf(config);
  const dataDir = resolve(parts.cwd, config.dataDir);
  const warn = (obj: Record<string, unknown>, msg: string): void => parts.logger.warn(obj, msg);
  const skills = await agentSkillsOf(config, workspaces, dataDir, warn);
  const mcp = await openAgentMcpServers(config, parts.cwd, parts.logger);
  const mcpLimits = Object.fromEntries(config.agents.map((agent) => [agent.id, agent.mcpToolLimit]));
  try {
    return newGateway();
  } catch (error) {
    await mcp.close();
    throw error;
  }
  function newGateway(): Gateway {
    const setups = agentSetupsOf(config, workspaces);
    return new Gateway({
      config: { ...gatewayConfig, channels: [...(gatewayConfig.channels ?? []), ...(parts.extraPolicies ?? [])] },
      store: parts.store,
      channels: parts.channels,
      streamFn: parts.wrapStreamFn?.(built) ?? built,
      models: botModelCatalog(buildModelRegistry(config), config),
      selfIds: parts.selfIds,
      agents: setups,
      extensions: [
        ...botExtensions(config, skills, parts.memory, {
          dataDir,
          filesOf: (agentId) => {
            const root = workspaces.byAgent[agentId];
            const agent = config.agents.find((candidate) => candidate.id === agentId);
            return root === undefined ? undefined : { root, guestReadFolders: agent?.guestRead ?? [] };
          },
        }),
        ...skillRouterOfConfig(config, skills, parts.memory?.store, async () => {
          return (await openMemoryStore({ dataDir: config.dataDir, store: config.store }, parts.cwd, parts.store))
            .store;
        }),
        sessionEndHooksExtension(Object.fromEntries(Object.entries(setups).map(([id, setup]) => [id, setup.hooks]))),
        // Last: its sessionTools sees the list the other extensions left; stop() closes the servers.
        mcpExtension(mcp, mcpLimits),
      ],
      events: parts.events,
      logger: parts.logger,
      onRestart: config.onRestart,
      ...(parts.outboxPollMs === undefined ? {} : { outbox: { pollMs: parts.outboxPollMs } }),
      ...(parts.isAdmin === undefined ? {} : { isAdmin: parts.isAdmin }),
      ...(parts.telemetry === undefined ? {} : { telemetry: parts.telemetry }),
    });
  }
}
