import type { Model } from "@chorus/core";
import type { AgentConfig } from "../config/gateway-config-schema.js";
import type { ModelCatalog } from "./model-catalog.js";

/**
 * The models an agent's chats may use and switch to with `/model`: its `models`, by default its own model only.
 * Contract: pure; never empty.
 */
export function allowedModels(config: Pick<AgentConfig, "model" | "models">): readonly string[] {
  return config.models ?? [config.model];
}

/**
 * Whether an agent allows a model: `id` is one of its `models` as written, or names the same model as one of them
 * (`gpt-4.1` for `openai/gpt-4.1`). Contract: never throws; a model the catalog does not know is not allowed.
 */
export function isAllowedModel(
  models: Pick<ModelCatalog, "find">,
  config: Pick<AgentConfig, "model" | "models">,
  id: string,
): boolean {
  const chosen = findChosenModel(models, id);
  if (chosen === undefined) return false;
  return allowedModels(config).some((ref) => {
    if (ref === id) return true;
    const allowed = findChosenModel(models, ref);
    return allowed?.id === chosen.id && allowed.provider === chosen.provider;
  });
}

/**
 * The `/model` choice a session restores at start (seed 002 "Provider Preference Persistence"): its stored choice when
 * the agent keeps choices (`modelPersistence`, default true) and still allows that model (`models`), else none.
 */
export function restoredModelChoice(
  config: Pick<AgentConfig, "modelPersistence" | "model" | "models"> | undefined,
  session: { modelOverride?: string | undefined },
  models: Pick<ModelCatalog, "find">,
): string | undefined {
  if (config?.modelPersistence === false) return undefined;
  const choice = session.modelOverride;
  if (choice === undefined || config === undefined) return choice;
  return isAllowedModel(models, config, choice) ? choice : undefined;
}

/**
 * Looks a chosen model up, best-effort. Contract: never throws — an id the catalog no longer knows, or a catalog that
 * fails, gives undefined, and the caller silently uses the agent's default (a choice never blocks a session's start).
 */
export function findChosenModel(models: Pick<ModelCatalog, "find">, id: string | undefined): Model | undefined {
  if (id === undefined) return undefined;
  try {
    return models.find(id);
  } catch {
    return undefined;
  }
}
