import { describe, expect, it } from "vitest";
import { gatewayConfigOf } from "../src/config/gateway-config-of.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";

describe("an agent's compaction settings in the bot config", () => {
  it("reach the gateway, off by default (no pruning strategy, the status line on)", () => {
    const result = parseBotConfig({
      agents: [
        { id: "a", model: "demo" },
        { id: "b", model: "demo", compaction: { pruning: ["subgoal_mig"], subgoalModel: "demo", statusLine: false } },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [a, b] = gatewayConfigOf(result.config).agents;
    expect(a?.compaction).toEqual({ pruning: [], statusLine: true });
    expect(b?.compaction).toEqual({ pruning: ["subgoal_mig"], subgoalModel: "demo", statusLine: false });
  });

  it("refuses two exclusive pruning strategies and an unknown subgoal model, naming the paths", () => {
    const both = parseBotConfig({
      agents: [{ id: "a", model: "demo", compaction: { pruning: ["subgoal", "subgoal_mig"] } }],
    });
    expect(both.ok).toBe(false);
    if (!both.ok) {
      expect(both.issues).toEqual([
        expect.objectContaining({
          path: "agents[0].compaction.pruning",
          message: expect.stringContaining("subgoal and subgoal_mig are mutually exclusive"),
        }),
      ]);
    }
    const unknown = parseBotConfig({
      agents: [{ id: "a", model: "demo", compaction: { pruning: ["subgoal"], subgoalModel: "gpt-99-ultra" } }],
    });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) {
      expect(unknown.issues).toEqual([
        expect.objectContaining({
          path: "agents[0].compaction.subgoalModel",
          message: expect.stringContaining("gpt-99-ultra"),
        }),
      ]);
    }
  });
});
