import type { Model } from "@chorus/core";
import { API } from "./api-names.js";
import { builtinModels } from "./builtin-models.js";

/** Thrown when a model id is not known to a registry. */
export class UnknownModelError extends Error {
  constructor(
    readonly modelId: string,
    known: readonly string[],
  ) {
    super(`Unknown model "${modelId}". Known models: ${known.join(", ")}. Register it with registry.register({...}).`);
    this.name = "UnknownModelError";
  }
}

/** Thrown when a model definition is unusable. */
export class InvalidModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidModelError";
  }
}

/**
 * Models by id: the built-in list plus user-defined ones (a user model replaces a built-in
 * of the same id). Contract: `get` throws UnknownModelError for an unknown id; `find` returns undefined.
 */
export class ModelRegistry {
  private readonly models = new Map<string, Model>();

  constructor(models: readonly Model[] = builtinModels) {
    for (const model of models) this.register(model);
  }

  /** Adds or replaces a model; throws InvalidModelError when a field is missing or negative. */
  register(model: Model): Model {
    validateModel(model);
    this.models.set(model.id, model);
    return model;
  }

  get(id: string): Model {
    const model = this.models.get(id);
    if (!model) throw new UnknownModelError(id, [...this.models.keys()]);
    return model;
  }

  find(id: string): Model | undefined {
    return this.models.get(id);
  }

  list(filter?: { provider?: string; api?: string }): Model[] {
    return [...this.models.values()].filter(
      (m) => (!filter?.provider || m.provider === filter.provider) && (!filter?.api || m.api === filter.api),
    );
  }
}

function validateModel(model: Model): void {
  if (!model.id) throw new InvalidModelError("A model needs an id");
  if (!model.provider || !model.api) throw new InvalidModelError(`Model "${model.id}" needs a provider and an api`);
  if (!(model.contextWindow > 0) || !(model.maxOutput > 0)) {
    throw new InvalidModelError(`Model "${model.id}" needs a positive contextWindow and maxOutput`);
  }
  for (const [key, price] of Object.entries(model.cost)) {
    if (!(price >= 0)) throw new InvalidModelError(`Model "${model.id}" has an invalid ${key} price: ${price}`);
  }
}

/**
 * A model served by an OpenAI-compatible server (Ollama, vLLM, LM Studio, OpenRouter…).
 * Contract: api "openai-chat", free unless prices are given, tools on, thinking/images off unless said.
 */
export function compatibleModel(
  init: { id: string; provider: string; baseUrl: string } & Partial<Omit<Model, "id" | "provider" | "baseUrl">>,
): Model {
  return {
    api: API.openaiChat,
    contextWindow: 32_768,
    maxOutput: 4_096,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    capabilities: { tools: true, thinking: false, images: false },
    ...init,
  };
}
