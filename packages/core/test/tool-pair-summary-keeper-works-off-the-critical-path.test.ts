import { describe, expect, it, vi } from "vitest";
import {
  Agent,
  type AgentMessage,
  type AssistantMessage,
  type StreamContext,
  TOOL_PAIR_SUMMARY_MARKER,
  TOOL_PAIR_SUMMARY_PROMPT,
  ToolPairSummaryKeeper,
} from "../src/index.js";
import {
  assistantText,
  assistantToolCalls,
  fakeModel,
  scriptedStreamFn,
  toolResult,
  userMessage,
} from "../src/testing/index.js";
import { echoTool, textOf } from "./support/test-tools.js";

const big = (tokens: number): string => "x".repeat(tokens * 4);

function pairs(ids: string[], tokens = 1_000): AgentMessage[] {
  const messages: AgentMessage[] = [userMessage("start")];
  for (const id of ids) messages.push(assistantToolCalls([{ name: "read", id }]), toolResult(id, "read", big(tokens)));
  return messages;
}

/** A summariser whose answers the test gives, one call at a time; counts calls running at once. */
function heldSummariser() {
  const waiting: { context: StreamContext; answer: (text: string) => void; fail: (e: Error) => void }[] = [];
  let running = 0;
  let most = 0;
  const complete = (context: StreamContext): Promise<AssistantMessage> => {
    running++;
    most = Math.max(most, running);
    return new Promise<AssistantMessage>((resolve, reject) => {
      const done = () => running--;
      waiting.push({
        context,
        answer: (text) => {
          done();
          resolve(assistantText(text));
        },
        fail: (e) => {
          done();
          reject(e);
        },
      });
    });
  };
  return { complete, waiting, most: () => most };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the tool-pair summary keeper (seed 002: summarised in the background, kept until needed)", () => {
  it("summarises each finished pair once, one call at a time, keyed by its tool call id", async () => {
    const summariser = heldSummariser();
    const keeper = new ToolPairSummaryKeeper({ complete: summariser.complete });
    expect(keeper.notePairs(pairs(["a", "b"]))).toBe(2);
    expect(keeper.notePairs(pairs(["a", "b"]))).toBe(0); // queued already
    await tick();
    expect(summariser.waiting).toHaveLength(1);
    expect(summariser.waiting[0]?.context.systemPrompt).toBe(TOOL_PAIR_SUMMARY_PROMPT);
    expect(textOf(summariser.waiting[0]?.context.messages[0])).toContain("Tool: read");
    summariser.waiting[0]?.answer("a: the file has 3 functions");
    await tick();
    summariser.waiting[1]?.answer("b: empty file");
    await keeper.settled();
    expect(summariser.most()).toBe(1);
    expect(keeper.snapshot()).toEqual({ a: "a: the file has 3 functions", b: "b: empty file" });
    expect(keeper.notePairs(pairs(["a", "b"]))).toBe(0); // summarised already
  });

  it("skips results too small to be worth a call, and results already replaced", () => {
    const keeper = new ToolPairSummaryKeeper({ complete: heldSummariser().complete });
    const small = [assistantToolCalls([{ name: "echo", id: "s" }]), toolResult("s", "echo", "ok")];
    const done = [
      assistantToolCalls([{ name: "read", id: "d" }]),
      toolResult("d", "read", `${TOOL_PAIR_SUMMARY_MARKER}\nx`),
    ];
    expect(keeper.notePairs([...small, ...done])).toBe(0);
  });

  it("a failing summariser is logged and ignored: the next pair is still summarised", async () => {
    const summariser = heldSummariser();
    const warn = vi.fn();
    const keeper = new ToolPairSummaryKeeper({ complete: summariser.complete, logger: { warn } });
    keeper.notePairs(pairs(["a", "b"]));
    await tick();
    summariser.waiting[0]?.fail(new Error("cheap model down"));
    await tick();
    summariser.waiting[1]?.answer("b: fine");
    await keeper.settled();
    expect(keeper.snapshot()).toEqual({ b: "b: fine" });
    expect(keeper.notePairs(pairs(["a", "b"]))).toBe(0); // a failed pair is not tried again
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: "cheap model down", tool: "read" }),
      "a tool-pair summary failed",
    );
  });

  it("restores from a snapshot, drops summaries whose call left the transcript, and forgets on request", async () => {
    const changes: object[] = [];
    const keeper = new ToolPairSummaryKeeper({
      complete: heldSummariser().complete,
      restore: { a: "sa", b: "sb", c: "sc" },
      onChange: (snapshot) => changes.push(snapshot),
    });
    expect(keeper.summaryOf("b")).toBe("sb");
    expect(keeper.retain(pairs(["b", "c"]))).toBe(true);
    expect(keeper.snapshot()).toEqual({ b: "sb", c: "sc" });
    expect(JSON.parse(JSON.stringify(keeper.snapshot()))).toEqual({ b: "sb", c: "sc" });
    keeper.forget();
    expect(keeper.size).toBe(0);
    expect(changes).toEqual([{ b: "sb", c: "sc" }, {}]);
  });

  it("never delays a turn: the agent's run ends while the summary is still being made, the next one uses it", async () => {
    const summariser = heldSummariser();
    const keeper = new ToolPairSummaryKeeper({ complete: summariser.complete });
    const streamFn = scriptedStreamFn([
      { toolCalls: [{ name: "echo", id: "e1", args: { text: big(2_000) } }] },
      "first answer",
      "second answer",
    ]);
    const agent = new Agent({
      model: fakeModel({ contextWindow: 20_000 }),
      streamFn,
      tools: [echoTool],
      context: keeper.applyTo(
        { reserve: 2_000, microCompaction: { enabled: false } },
        { keepRecent: 0, softThreshold: 0.1 },
      ),
    });
    agent.subscribe((event) => {
      if (event.type === "turn_end") keeper.notePairs(agent.state.messages);
    });
    const first = await agent.prompt("go");
    expect(first.reason).toBe("completed");
    await tick();
    expect(summariser.waiting).toHaveLength(1); // still unanswered: the run did not wait for it
    summariser.waiting[0]?.answer("echoed 8 000 x");
    await keeper.settled();
    await agent.prompt("again");
    const sent = streamFn.calls[2]?.context.messages.find((m) => m.role === "toolResult");
    expect(textOf(sent)).toBe(`${TOOL_PAIR_SUMMARY_MARKER}\nechoed 8 000 x`);
  });

  it("close aborts the summary under way and takes no more", async () => {
    let signal: AbortSignal | undefined;
    const warn = vi.fn();
    const keeper = new ToolPairSummaryKeeper({
      complete: (_context, s) => {
        signal = s;
        return new Promise(() => {});
      },
      logger: { warn },
    });
    keeper.notePairs(pairs(["a"]));
    await tick();
    keeper.close();
    expect(signal?.aborted).toBe(true);
    await keeper.settled();
    expect(keeper.notePairs(pairs(["b"]))).toBe(0);
    expect(warn).not.toHaveBeenCalled();
  });
});
