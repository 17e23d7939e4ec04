import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Script } from "@chorus/core/testing";
import type { ReplyMode } from "@chorus/gateway";
import { HARNESS_CONFIG, type Harness, startHarness } from "@chorus/gateway-testing";
import { gatewayConfigOf } from "../../src/config/gateway-config-of.js";
import { parseBotConfig } from "../../src/config/load-bot-config.js";
import { buildModelRegistry } from "../../src/models/model-reference.js";
import { agentSetupsOf } from "../../src/runtime/agent-setup.js";
import { agentWorkspacesOf, prepareAgentWorkspaces } from "../../src/runtime/agent-workspaces.js";
import { botModelCatalog } from "../../src/runtime/model-catalog.js";

/** Two scripted models the tests' agent runs on: `primary` (the agent's model) and `backup`. */
export const SCRIPTED_MODELS = [
  { id: "primary", provider: "scripted", api: "scripted", contextWindow: 40_000 },
  { id: "backup", provider: "scripted", api: "scripted", contextWindow: 40_000 },
];

/** A started gateway and the temporary folder its agent's workspace is in. */
export interface LoopSettingsGateway extends Harness {
  /** Stops the gateway and removes the folder. */
  close(): Promise<void>;
}

/**
 * A gateway built the way `chorus start` builds one from the agent `main` (on `primary`) with the given fields: the
 * bot's config parsing, its agent setup (tools, loop settings) and model catalog, on the scripted model and a
 * TestChannel. Contract: throws when the config is refused.
 */
export async function loopSettingsGateway(
  agent: Record<string, unknown>,
  script: Script,
  options: { replyMode?: ReplyMode; typingDelayMs?: number } = {},
): Promise<LoopSettingsGateway> {
  const parsed = parseBotConfig({ models: SCRIPTED_MODELS, agents: [{ id: "main", model: "primary", ...agent }] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const config = parsed.config;
  const dir = await mkdtemp(join(tmpdir(), "chorus-loop-"));
  const workspaces = await agentWorkspacesOf(config, dir);
  await prepareAgentWorkspaces(workspaces);
  const h = await startHarness({
    script,
    config: { ...HARNESS_CONFIG, agents: gatewayConfigOf(config).agents },
    gateway: {
      models: botModelCatalog(buildModelRegistry(config), config),
      agents: agentSetupsOf(config, workspaces),
      ...options,
    },
  });
  return {
    ...h,
    async close() {
      await h.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
