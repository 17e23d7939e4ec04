import { describe, expect, it } from "vitest";
import { gatewayConfigOf } from "../src/config/gateway-config-of.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";

describe("an agent's goal settings in the bot config", () => {
  it("reach the gateway with seed 002's defaults for every field left out", () => {
    const result = parseBotConfig({
      agents: [
        { id: "a", model: "demo" },
        { id: "b", model: "demo", goals: { autonomousEnabled: true, verifyInterval: 2, supervisorModel: "demo" } },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [a, b] = gatewayConfigOf(result.config).agents;
    expect(a?.goals).toEqual({
      enabled: true,
      trackInSystemPrompt: false,
      completionPhrases: ["task complete", "done", "finished", "completed"],
      inferFromConversation: false,
      autonomousEnabled: false,
      autonomousMaxTurns: 50,
      verifyInterval: 5,
      supervisorTimeoutSecs: 30,
      maxStuckCount: 3,
      autonomousTurnDelayMs: 500,
      maxSupervisorFails: 3,
      autonomousMinTier: "owner",
    });
    expect(b?.goals).toMatchObject({ autonomousEnabled: true, verifyInterval: 2, supervisorModel: "demo" });
  });

  it("names the exact path of a bad goal setting or an unknown supervisor or inference model", () => {
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo", goals: { verifyInterval: 0, autonomousMaxTurns: -1 } }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual([
      "agents[0].goals.autonomousMaxTurns",
      "agents[0].goals.verifyInterval",
    ]);
    const model = parseBotConfig({ agents: [{ id: "a", model: "demo", goals: { supervisorModel: "gpt-99-ultra" } }] });
    expect(model.ok).toBe(false);
    if (!model.ok) {
      expect(model.issues).toEqual([
        expect.objectContaining({
          path: "agents[0].goals.supervisorModel",
          message: expect.stringContaining("gpt-99-ultra"),
        }),
      ]);
    }
    const inference = parseBotConfig({
      agents: [{ id: "a", model: "demo", goals: { inferFromConversation: true, inferenceModel: "gpt-99-mini" } }],
    });
    expect(inference.ok).toBe(false);
    if (!inference.ok) {
      expect(inference.issues).toEqual([
        expect.objectContaining({
          path: "agents[0].goals.inferenceModel",
          message: expect.stringContaining("gpt-99-mini"),
        }),
      ]);
    }
  });
});
