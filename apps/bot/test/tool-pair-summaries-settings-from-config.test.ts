import { describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";

describe("an agent's deferred tool-pair summaries in the bot config (agents[].context.toolPairSummaries)", () => {
  it("are off by default and take their defaults when switched on", () => {
    const result = parseBotConfig({
      agents: [
        { id: "a", model: "demo" },
        { id: "b", model: "demo", context: { toolPairSummaries: { enabled: true, model: "demo" } } },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [a, b] = result.config.agents;
    expect(a?.context.toolPairSummaries).toBeUndefined();
    expect(b?.context.toolPairSummaries).toEqual({ enabled: true, model: "demo", softThreshold: 0.6, keepRecent: 4 });
  });

  it("refuses a soft threshold outside 0 < x < 1 at start, naming the exact path", () => {
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo", context: { toolPairSummaries: { enabled: true, softThreshold: 1 } } }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      {
        path: "agents[0].context.toolPairSummaries.softThreshold",
        message: expect.stringMatching(/^must be below 1 \(a share of the context window, e\.g\. 0\.6\)/),
      },
    ]);
  });

  it("refuses a misspelt key instead of ignoring it", () => {
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo", context: { toolPairSummaries: { enabled: true, keepRecnt: 2 } } }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]?.path).toMatch(/^agents\[0\]\.context\.toolPairSummaries/);
  });

  it("refuses a summariser model the bot does not know, naming the exact path", () => {
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo", context: { toolPairSummaries: { enabled: true, model: "nope/none" } } }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual(["agents[0].context.toolPairSummaries.model"]);
  });
});
