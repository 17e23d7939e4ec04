import { describe, expect, it } from "vitest";
import {
  type AgentMessage,
  agentLoop,
  InvalidAgentConfigError,
  TOOL_PAIR_SUMMARY_MARKER,
  type ToolPairSummarySource,
} from "../src/index.js";
import { assistantToolCalls, fakeModel, scriptedStreamFn, toolResult, userMessage } from "../src/testing/index.js";
import { collect, ofType, textOf } from "./support/test-tools.js";

const big = (tokens: number): string => "x".repeat(tokens * 4);

/** `count` read rounds of ~`tokens` each, ids c0…; with a result whose call is gone first (an orphan). */
function rounds(count: number, tokens: number, orphan = false): AgentMessage[] {
  const messages: AgentMessage[] = [userMessage("start")];
  if (orphan) messages.push(toolResult("gone", "read", "a result whose call was compacted away"));
  for (let i = 0; i < count; i++) {
    messages.push(assistantToolCalls([{ name: "read", id: `c${i}` }]), toolResult(`c${i}`, "read", big(tokens)));
  }
  return messages;
}

/** Every pair has a short summary. */
const everyPair: ToolPairSummarySource = { summaryOf: (id) => `read ${id}: 42 lines about x` };

// window 20 000, reserve 2 000: the soft tier at 12 000, the hard one at 18 000; micro-compaction off to see the tier.
const model = fakeModel({ contextWindow: 20_000 });
const context = (summaries: ToolPairSummarySource, more: object = {}) => ({
  reserve: 2_000,
  microCompaction: { enabled: false },
  toolPairSummaries: { summaries, ...more },
});

async function run(transcript: AgentMessage[], summaries: ToolPairSummarySource, more: object = {}) {
  const streamFn = scriptedStreamFn(["done"]);
  const events = await collect(
    agentLoop([userMessage("next")], { messages: transcript }, { model, streamFn, context: context(summaries, more) }),
  );
  const sent = streamFn.calls[0]?.context.messages ?? [];
  return { events, sent, results: sent.filter((m) => m.role === "toolResult") };
}

describe("the soft threshold applies deferred tool-pair summaries (seed 002)", () => {
  it("below 60 % of the window sends every tool result as it is", async () => {
    const { events, results } = await run(rounds(8, 1_000), everyPair); // ~8 000 tokens < 12 000
    expect(ofType(events, "compaction")).toHaveLength(0);
    expect(results.every((r) => textOf(r).length === 4_000)).toBe(true);
  });

  it("past it replaces the older summarised results, keeps the most recent ones, and tells the tokens saved", async () => {
    const { events, results, sent } = await run(rounds(8, 1_600), everyPair); // ~12 800 tokens
    const applied = ofType(events, "compaction").find((e) => e.kind === "tool_pairs");
    expect(applied && applied.tokensBefore - applied.tokensAfter).toBeGreaterThan(4 * 1_500);
    expect(results.slice(0, 4).map(textOf)).toEqual(
      [0, 1, 2, 3].map((i) => `${TOOL_PAIR_SUMMARY_MARKER}\nread c${i}: 42 lines about x`),
    );
    expect(results.slice(4).every((r) => textOf(r).length === 6_400)).toBe(true);
    // The tool calls stay: every pair is still whole for the provider.
    const calls = sent.flatMap((m) => (m.role === "assistant" ? m.content.filter((b) => b.type === "toolCall") : []));
    expect(calls.map((c) => (c as { id: string }).id)).toEqual(
      results.map((r) => (r as { toolCallId: string }).toolCallId),
    );
    expect(ofType(events, "agent_end")[0]?.reason).toBe("completed");
  });

  it("keeps as many recent results as configured, and leaves pairs without a summary as they are", async () => {
    const some: ToolPairSummarySource = { summaryOf: (id) => (id === "c1" ? undefined : `summary of ${id}`) };
    const { results } = await run(rounds(8, 1_600), some, { keepRecent: 2 });
    const replaced = results.map((r) => textOf(r).startsWith(TOOL_PAIR_SUMMARY_MARKER));
    expect(replaced).toEqual([true, false, true, true, true, true, false, false]);
  });

  it("never sends a tool result whose call is gone", async () => {
    const { results } = await run(rounds(8, 1_600, true), everyPair);
    expect(results.map((r) => (r as { toolCallId: string }).toolCallId)).not.toContain("gone");
    expect(results).toHaveLength(8);
  });

  it("a summary source that throws changes nothing and the turn still runs", async () => {
    const broken: ToolPairSummarySource = {
      summaryOf: () => {
        throw new Error("store down");
      },
    };
    const { events, results } = await run(rounds(8, 1_600), broken);
    expect(ofType(events, "agent_end")[0]?.reason).toBe("completed");
    expect(results.every((r) => textOf(r).length === 6_400)).toBe(true);
  });

  it("rejects a soft threshold outside 0 < x < 1 or not below the hard one, naming the field", () => {
    const start = (softThreshold: number) =>
      agentLoop(
        [userMessage("hi")],
        { messages: [] },
        { model, streamFn: scriptedStreamFn([]), context: context(everyPair, { softThreshold }) },
      );
    expect(() => start(0)).toThrow(InvalidAgentConfigError);
    expect(() => start(1)).toThrow(/softThreshold must be between 0 and 1, got 1/);
    // 0.95 × 20 000 = 19 000 is past window − reserve = 18 000.
    expect(() => start(0.95)).toThrow(/must lie below the hard threshold.*18000/);
    expect(() => start(0.8)).not.toThrow();
  });
});
