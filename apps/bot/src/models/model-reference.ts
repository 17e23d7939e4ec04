import type { Model } from "@chorus/core";
import { compatibleModel, ModelRegistry } from "@chorus/providers";
import type { BotConfig } from "../config/bot-config-schema.js";
import { DEMO_MODEL_REF, demoModel } from "../demo/demo-model.js";

/** A model reference that names no usable model. */
export class UnknownModelRefError extends Error {
  override readonly name = "UnknownModelRefError";
}

/**
 * The models a configuration can reach: the built-in registry, the config's `models` section, and the demo model.
 * Contract: a model of a compatible provider gets that provider's baseUrl.
 */
export function buildModelRegistry(config: Pick<BotConfig, "models" | "providers">): ModelRegistry {
  const registry = new ModelRegistry();
  registry.register(demoModel());
  for (const definition of config.models) {
    const baseUrl = config.providers.compatible?.[definition.provider]?.baseUrl;
    const base = {
      id: definition.id,
      provider: definition.provider,
      contextWindow: definition.contextWindow,
      ...(definition.maxOutput === undefined ? {} : { maxOutput: definition.maxOutput }),
      ...(definition.cost === undefined ? {} : { cost: definition.cost }),
      ...(definition.api === undefined ? {} : { api: definition.api }),
    };
    const model = compatibleModel({ ...base, baseUrl: baseUrl ?? "" });
    if (baseUrl === undefined) delete model.baseUrl; // anthropic/openai models use their provider's own URL
    registry.register(model);
  }
  return registry;
}

/**
 * Resolves an agent's `model` field: a registry id (`claude-sonnet-4-6`), `provider/id` (`openai/gpt-5`,
 * `ollama/llama3.2` for a configured compatible server), or `demo`.
 * Contract: throws UnknownModelRefError saying what would have been accepted.
 */
export function resolveModelRef(ref: string, registry: ModelRegistry, config: Pick<BotConfig, "providers">): Model {
  if (ref === DEMO_MODEL_REF) return registry.get(demoModel().id);
  const direct = registry.find(ref);
  if (direct) return direct;
  const slash = ref.indexOf("/");
  if (slash > 0) {
    const provider = ref.slice(0, slash);
    const id = ref.slice(slash + 1);
    const known = registry.find(id);
    if (known && known.provider === provider) return known;
    const compatible = config.providers.compatible?.[provider];
    if (compatible) return compatibleModel({ id, provider, baseUrl: compatible.baseUrl });
    if (provider === "openai" && id.length > 0) {
      // A model the registry does not list yet (a new release): Chat Completions, registry defaults.
      const model = compatibleModel({ id, provider: "openai", baseUrl: "" });
      delete model.baseUrl;
      return model;
    }
  }
  const compatibleNames = Object.keys(config.providers.compatible ?? {});
  throw new UnknownModelRefError(
    `unknown model "${ref}": expected "demo", a known model id (e.g. claude-sonnet-4-6, gpt-5), "anthropic/<id>", ` +
      `"openai/<id>"${compatibleNames.length > 0 ? `, or "<${compatibleNames.join("|")}>/<id>"` : ", or <compatible provider>/<id> with that provider under providers.compatible"}`,
  );
}
