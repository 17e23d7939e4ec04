import { describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";

describe("an agent's focus settings in the bot config (agents[].context.focus)", () => {
  it("are off by default and take their defaults when switched on", () => {
    const result = parseBotConfig({
      agents: [
        { id: "a", model: "demo" },
        { id: "b", model: "demo", context: { focus: { enabled: true } } },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [a, b] = result.config.agents;
    expect(a?.context.focus).toBeUndefined();
    expect(b?.context.focus).toEqual({
      enabled: true,
      autoConsolidateMinWindow: 4,
      similarityThreshold: 0.5,
      maxKnowledgeChars: 8_000,
    });
  });

  it("refuses autoConsolidateMinWindow 0 at start, naming the exact path", () => {
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo", context: { focus: { enabled: true, autoConsolidateMinWindow: 0 } } }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      {
        path: "agents[0].context.focus.autoConsolidateMinWindow",
        message: expect.stringMatching(/^must be at least 1 .*0 would consolidate after every turn.*\(got 0\)$/),
      },
    ]);
  });

  it("refuses focus together with subgoal pruning, naming both", () => {
    const result = parseBotConfig({
      agents: [
        { id: "a", model: "demo" },
        {
          id: "b",
          model: "demo",
          compaction: { pruning: ["subgoal"] },
          context: { focus: { enabled: true } },
        },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      {
        path: "agents[1].context.focus.enabled",
        message:
          "the focus strategy and subgoal pruning (compaction.pruning: subgoal) are mutually exclusive compression " +
          "strategies; enable only one",
      },
    ]);
    // Focus alone, or subgoal pruning with focus off, is fine.
    const off = parseBotConfig({
      agents: [
        { id: "a", model: "demo", compaction: { pruning: ["subgoal"] }, context: { focus: { enabled: false } } },
      ],
    });
    expect(off.ok).toBe(true);
  });
});
