import type { Model } from "@chorus/core";
import type { ModelCatalog } from "@chorus/gateway";
import type { ModelRegistry } from "@chorus/providers";
import type { BotConfig } from "../config/bot-config-schema.js";
import { resolveModelRef } from "../models/model-reference.js";

/**
 * The gateway's model lookup over the bot's references (`demo`, `claude-sonnet-4-6`, `openai/gpt-5`,
 * `ollama/llama3.2`), so agents and `/model` accept the same names as the config.
 * Contract: `find` returns undefined for a reference that names no usable model.
 */
export function botModelCatalog(registry: ModelRegistry, config: Pick<BotConfig, "providers">): ModelCatalog {
  return {
    find(ref: string): Model | undefined {
      try {
        return resolveModelRef(ref, registry, config);
      } catch {
        return undefined;
      }
    },
    list: () => registry.list(),
  };
}
