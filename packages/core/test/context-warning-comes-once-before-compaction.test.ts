import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent, DEFAULT_SUMMARY_PROMPT } from "../src/index.js";
import { fakeModel, scriptedStreamFn } from "../src/testing/index.js";

const big = (tokens: number): string => "x".repeat(tokens * 4);

/** window 60 000, reserve 5 000: compaction past 55 000, the warning past 35 000 (seed 004's offset of 20 000). */
function agent(context: object = {}) {
  const streamFn = scriptedStreamFn((ctx) => (ctx.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "the gist" : "ok"));
  const events: AgentEvent[] = [];
  const a = new Agent({
    model: fakeModel({ contextWindow: 60_000 }),
    streamFn,
    context: { reserve: 5_000, compaction: { keepRecentTokens: 2_000 }, ...context },
  });
  a.subscribe((event) => events.push(event));
  return { agent: a, events, warnings: () => events.filter((e) => e.type === "context_warning") };
}

describe("the context warning (seed 004 WARNING_OFFSET): once per approach, before a compaction is forced", () => {
  it("is emitted once as the transcript passes window − reserve − 20 000, not on every later turn", async () => {
    const { agent: a, warnings } = agent();
    for (let i = 0; i < 3; i++) await a.prompt(big(10_000)); // ~30 000
    expect(warnings()).toHaveLength(0);
    await a.prompt(big(10_000)); // ~40 000
    expect(warnings()).toEqual([
      { type: "context_warning", tokens: expect.any(Number), window: 60_000, compactAt: 55_000 },
    ]);
    const [warning] = warnings();
    expect(warning && warning.tokens > 35_000 && warning.tokens <= 55_000).toBe(true);
    await a.prompt(big(10_000)); // ~50 000: still approaching, no second warning
    expect(warnings()).toHaveLength(1);
  });

  it("is re-armed after a compaction brought the transcript back under the line", async () => {
    const { agent: a, events, warnings } = agent();
    for (let i = 0; i < 6; i++) await a.prompt(big(10_000)); // the 6th passes 55 000: compaction
    expect(events.some((e) => e.type === "compaction" && e.kind === "summary")).toBe(true);
    expect(warnings()).toHaveLength(1);
    for (let i = 0; i < 4; i++) await a.prompt(big(10_000));
    expect(warnings()).toHaveLength(2);
  });

  it("follows the configured offset, and stays silent where the offset leaves under half of window − reserve", async () => {
    const near = agent({ warningOffset: 5_000 }); // the line at 50 000
    for (let i = 0; i < 4; i++) await near.agent.prompt(big(10_000));
    expect(near.warnings()).toHaveLength(0);
    await near.agent.prompt(big(10_000));
    expect(near.warnings()).toHaveLength(1);

    const small = agent({ warningOffset: 30_000 }); // 55 000 − 30 000 < 27 500
    for (let i = 0; i < 5; i++) await small.agent.prompt(big(10_000));
    expect(small.warnings()).toHaveLength(0);
  });
});
