import type { Model } from "@chorus/core";
import type { AgentConfig } from "../config/gateway-config-schema.js";
import type { ModelCatalog } from "../gateway/gateway-options.js";

/**
 * The `/model` choice a session restores at start (seed 002 "Provider Preference Persistence"): its stored choice when
 * the agent keeps choices (`modelPersistence`, default true), else none.
 */
export function restoredModelChoice(
  config: Pick<AgentConfig, "modelPersistence"> | undefined,
  session: { modelOverride?: string | undefined },
): string | undefined {
  return config?.modelPersistence === false ? undefined : session.modelOverride;
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
