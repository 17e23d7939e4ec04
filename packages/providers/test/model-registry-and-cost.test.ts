import { emptyUsage } from "@chorus/core";
import { describe, expect, it } from "vitest";
import {
  builtinModels,
  calculateCost,
  compatibleModel,
  InvalidModelError,
  ModelRegistry,
  UnknownModelError,
} from "../src/index.js";

describe("model registry", () => {
  it("knows the built-in Anthropic and OpenAI models with prices and limits", () => {
    const registry = new ModelRegistry();
    const sonnet = registry.get("claude-sonnet-4-6");
    expect(sonnet).toMatchObject({ provider: "anthropic", api: "anthropic-messages", contextWindow: 200_000 });
    expect(sonnet.cost).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(registry.get("gpt-5").api).toBe("openai-responses");
    expect(registry.get("gpt-4o").api).toBe("openai-chat");
    expect(registry.list({ provider: "anthropic" }).length).toBeGreaterThan(0);
    expect(builtinModels.every((m) => m.cost.input > 0 && m.maxOutput > 0)).toBe(true);
  });

  it("lets a user model replace or extend the list", () => {
    const registry = new ModelRegistry();
    registry.register(compatibleModel({ id: "llama3.2", provider: "ollama", baseUrl: "http://127.0.0.1:11434/v1" }));
    expect(registry.get("llama3.2")).toMatchObject({ api: "openai-chat", cost: { input: 0 } });
    registry.register({ ...registry.get("gpt-4o"), cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } });
    expect(registry.get("gpt-4o").cost.input).toBe(1);
  });

  it("throws typed errors for unknown ids and broken definitions", () => {
    const registry = new ModelRegistry();
    expect(() => registry.get("gpt-99")).toThrow(UnknownModelError);
    expect(registry.find("gpt-99")).toBeUndefined();
    expect(() => registry.register({ ...registry.get("gpt-4o"), id: "x", contextWindow: 0 })).toThrow(
      InvalidModelError,
    );
    expect(() =>
      registry.register({
        ...registry.get("gpt-4o"),
        id: "y",
        cost: { input: -1, output: 0, cacheRead: 0, cacheWrite: 0 },
      }),
    ).toThrow(InvalidModelError);
  });
});

describe("calculateCost", () => {
  it("prices each token class per million and sums them", () => {
    const model = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
    const usage = { ...emptyUsage(), input: 2_000_000, output: 100_000, cacheRead: 1_000_000, cacheWrite: 400_000 };
    const cost = calculateCost(model, usage);
    expect(cost).toEqual({ input: 6, output: 1.5, cacheRead: 0.3, cacheWrite: 1.5, total: 9.3 });
  });
});
