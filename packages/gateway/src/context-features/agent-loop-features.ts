import type { AgentLoopConfig, ExecutionContextSource, Model, RecentFilesSource } from "@chorus/core";
import { GatewayConfigError } from "../config/gateway-config-error.js";
import type { AgentConfig } from "../config/gateway-config-schema.js";
import type { ModelCatalog } from "../model-preference/model-catalog.js";

/** The loop settings an agent's config and runtime setup add to every session's Agent. */
export type AgentLoopFeatures = Pick<AgentLoopConfig, "toolOutputCompression" | "executionContext" | OwnKey>;
/** An agent's own loop settings (`LoopFeatureSources.loop`): fallback models, max turns, the stall watchdog, context. */
type OwnKey = "context" | "maxTurns" | "stallTimeoutMs" | "stallRecovery" | "fallbackModels" | "fallbackImmediately";

/** What the runtime setup contributes (the bot: from @chorus/tools' WorkingDirectories and RecentFileReads). */
export interface LoopFeatureSources {
  executionContext?: ExecutionContextSource;
  recentFiles?: RecentFilesSource;
  /** Over the gateway-wide `loop`; a `context` key it sets (e.g. `compaction`) replaces that key there as a whole. */
  loop?: Pick<AgentLoopConfig, OwnKey>;
}

/**
 * Builds an agent's TACO, context-restoration, execution-context and own loop settings, over the gateway-wide `loop`.
 * Contract: throws GatewayConfigError when `toolOutputCompression.model` is not in the catalog.
 */
export function agentLoopFeatures(
  config: AgentConfig,
  sources: LoopFeatureSources | undefined,
  models: ModelCatalog,
  loop: Partial<AgentLoopConfig> | undefined,
): AgentLoopFeatures {
  const features: AgentLoopFeatures = { ...sources?.loop };
  const taco = config.toolOutputCompression;
  if (taco.enabled) {
    let model: Model | undefined;
    if (taco.model !== undefined) {
      model = models.find(taco.model);
      if (model === undefined) {
        const known = models.list().map((m) => m.id);
        throw new GatewayConfigError([
          {
            path: `agents.${config.id}.toolOutputCompression.model`,
            message: `unknown model ${JSON.stringify(taco.model)}; known models: ${known.join(", ") || "(none)"}`,
          },
        ]);
      }
    }
    features.toolOutputCompression = {
      ...loop?.toolOutputCompression,
      enabled: true,
      thresholdTokens: taco.thresholdTokens,
      targetTokens: taco.targetTokens,
      compressibleTools: taco.compressibleTools,
      timeoutMs: taco.timeoutSecs * 1000,
      ...(model === undefined ? {} : { model }),
    };
  }
  const restoration = config.contextRestoration;
  // Set even without a files source: extensions add theirs (skills, the plan) to it, and see `enabled: false`.
  features.context = {
    ...loop?.context,
    ...sources?.loop?.context,
    restoration: restoration.enabled
      ? {
          ...loop?.context?.restoration,
          ...(sources?.recentFiles === undefined ? {} : { recentFiles: sources.recentFiles }),
          maxFiles: restoration.maxFiles,
          totalBudgetTokens: restoration.totalBudgetTokens,
          perFileTokens: restoration.perFileTokens,
        }
      : { enabled: false },
  };
  if (sources?.executionContext !== undefined) features.executionContext = sources.executionContext;
  return features;
}
