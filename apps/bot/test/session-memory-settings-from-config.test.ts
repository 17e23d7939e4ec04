import { describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";

describe("agents[].context.sessionMemory in chorus.config.yaml", () => {
  it("reaches the agent's context settings with the seed's defaults filled in", () => {
    const result = parseBotConfig({
      agents: [
        { id: "a", model: "demo", context: { sessionMemory: { enabled: true, model: "demo", minTokens: 8000 } } },
      ],
    });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.config.agents[0]?.context.sessionMemory).toEqual({
        enabled: true,
        model: "demo",
        minTokens: 8_000,
        minToolCalls: 10,
        minSavingsTokens: 10_000,
      });
    }
  });

  it("an unknown model is a configuration error naming its path", () => {
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo", context: { sessionMemory: { enabled: true, model: "gpt-99-ultra" } } }],
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues).toEqual([
        expect.objectContaining({
          path: "agents[0].context.sessionMemory.model",
          message: expect.stringContaining("gpt-99-ultra"),
        }),
      ]);
    }
  });
});
