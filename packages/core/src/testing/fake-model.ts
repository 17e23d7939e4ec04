import type { Model } from "../model/model.js";

/**
 * A model description for tests. Contract: prices are $1 / $2 / $0.1 / $1.25 per million
 * input / output / cache-read / cache-write tokens, so costs are easy to check; override anything.
 */
export function fakeModel(overrides: Partial<Model> = {}): Model {
  return {
    id: "fake-model",
    provider: "scripted",
    api: "scripted",
    contextWindow: 200_000,
    maxOutput: 8_192,
    cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 },
    capabilities: { tools: true, thinking: true, images: true },
    ...overrides,
  };
}
