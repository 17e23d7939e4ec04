import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AgentMessage,
  type AnyAgentTool,
  agentLoop,
  CLEARED_RESULT_TEXT,
  defineTool,
  estimateToolTokens,
  findCompactionCut,
  microCompact,
  SUMMARY_PREFIX,
  toLlmTool,
} from "../src/index.js";
import {
  assistantText,
  assistantToolCalls,
  fakeModel,
  scriptedStreamFn,
  toolResult,
  userMessage,
} from "../src/testing/index.js";
import { collect, ofType, textOf } from "./support/test-tools.js";

const big = (n: number): string => "x".repeat(n * 4);

function toolRounds(count: number, resultTokens: number): AgentMessage[] {
  const messages: AgentMessage[] = [userMessage("start")];
  for (let i = 0; i < count; i++) {
    messages.push(assistantToolCalls([{ name: "read", id: `c${i}` }]), toolResult(`c${i}`, "read", big(resultTokens)));
  }
  return messages;
}

describe("micro-compaction (seed 004: keep 3, save at least 20 000 tokens)", () => {
  it("clears tool results older than the most recent 3 when that saves enough", () => {
    const messages = toolRounds(5, 15_000);
    const out = microCompact(messages);
    const texts = (out?.messages ?? []).filter((m) => (m as { role: string }).role === "toolResult").map(textOf);
    expect(texts.slice(0, 2)).toEqual([CLEARED_RESULT_TEXT, CLEARED_RESULT_TEXT]);
    expect(texts.slice(2).every((t) => t.length === 60_000)).toBe(true);
    expect(out?.saved).toBeGreaterThan(20_000);
    expect(textOf(messages[2])).toHaveLength(60_000);
  });

  it("does nothing when the saving is below the threshold", () => {
    expect(microCompact(toolRounds(5, 5_000))).toBeUndefined();
    expect(microCompact(toolRounds(5, 5_000), { minSavingsTokens: 1_000 })).toBeDefined();
  });

  it("runs before the request and emits a micro compaction event", async () => {
    const streamFn = scriptedStreamFn(["ok"]);
    const events = await collect(
      agentLoop([userMessage("next")], { messages: toolRounds(5, 15_000) }, { model: fakeModel(), streamFn }),
    );
    const compaction = ofType(events, "compaction")[0];
    expect(compaction?.kind).toBe("micro");
    expect(compaction && compaction.tokensAfter < compaction.tokensBefore).toBe(true);
    const sent = streamFn.calls[0]?.context.messages.filter((m) => m.role === "toolResult").map(textOf);
    expect(sent?.filter((t) => t === CLEARED_RESULT_TEXT)).toHaveLength(2);
  });
});

describe("summarising auto-compaction", () => {
  const model = fakeModel({ contextWindow: 10_000 });
  const config = { context: { reserve: 2_000, blockingReserve: 500, compaction: { keepRecentTokens: 1_500 } } };

  it("never cuts between a tool call and its result", () => {
    const messages = toolRounds(3, 1_000);
    const cut = findCompactionCut(messages, 1_200);
    expect((messages[cut] as { role: string }).role).not.toBe("toolResult");
    expect(cut).toBe(3);
    expect((messages[cut] as { role: string }).role).toBe("assistant");
  });

  it("summarises older messages through the StreamFn when the estimate passes window − reserve", async () => {
    const history: AgentMessage[] = [];
    for (let i = 0; i < 10; i++) history.push(userMessage(big(500)), assistantText(big(400)));
    const streamFn = scriptedStreamFn((ctx) =>
      ctx.systemPrompt?.startsWith("You are compacting") ? "the gist" : "answer",
    );
    const events = await collect(
      agentLoop([userMessage("now")], { messages: history }, { model, streamFn, ...config }),
    );
    expect(streamFn.calls).toHaveLength(2);
    const compaction = ofType(events, "compaction")[0];
    expect(compaction).toMatchObject({ kind: "summary" });
    expect(compaction && compaction.tokensAfter < compaction.tokensBefore).toBe(true);
    expect(compaction && compaction.tokensBefore > 8_000).toBe(true);
    const sent = streamFn.calls[1]?.context.messages ?? [];
    expect(textOf(sent[0])).toBe(`${SUMMARY_PREFIX}the gist`);
    expect(textOf(sent.at(-1))).toBe("now");
    expect(compaction?.messages[0]).toMatchObject({ role: "user", content: `${SUMMARY_PREFIX}the gist` });
  });

  it("ends the run with a clear error when the request is still over the ceiling", async () => {
    const streamFn = scriptedStreamFn(() => "unused");
    const events = await collect(
      agentLoop(
        [userMessage(big(20_000))],
        { messages: [] },
        {
          model,
          streamFn,
          context: { ...config.context, compaction: { enabled: false } },
        },
      ),
    );
    expect(streamFn.calls).toHaveLength(0);
    const end = ofType(events, "agent_end")[0];
    expect(end?.reason).toBe("error");
    expect(end?.error).toMatch(/too large to send: about \d+ tokens, over the limit of 9500/);
  });

  it("counts the tool definitions against the ceiling (seed 003 step 8: messages + system + tools)", async () => {
    // 4 000 tokens of messages fit a 9 500-token ceiling; with 6 000 tokens of tool definitions they do not.
    const heavy = defineTool({
      name: "heavy",
      description: big(6_000),
      category: "info",
      parameters: z.object({}),
      execute: async () => ({ content: [] }),
    });
    const ask = async (tools: AnyAgentTool[]) => {
      const streamFn = scriptedStreamFn(() => "fits");
      const events = await collect(
        agentLoop(
          [userMessage(big(4_000))],
          { messages: [] },
          {
            model,
            streamFn,
            tools,
            context: { ...config.context, compaction: { enabled: false } },
          },
        ),
      );
      return { calls: streamFn.calls.length, end: ofType(events, "agent_end")[0] };
    };
    const without = await ask([]);
    expect(without.calls).toBe(1);
    const withTools = await ask([heavy]);
    expect(withTools.calls).toBe(0);
    expect(withTools.end?.error).toMatch(/about \d+ tokens, \d+ of them tool definitions, over the limit of 9500/);
    expect(estimateToolTokens([toLlmTool(heavy)])).toBeGreaterThan(6_000);
  });

  it("compacts and retries once when the provider reports context_overflow", async () => {
    const history: AgentMessage[] = [];
    for (let i = 0; i < 6; i++) history.push(userMessage(big(300)), assistantText(big(300)));
    let overflowed = false;
    const streamFn = scriptedStreamFn((ctx) => {
      if (ctx.systemPrompt?.startsWith("You are compacting")) return "summary";
      if (!overflowed) {
        overflowed = true;
        return { fault: "error", error: { kind: "context_overflow", message: "prompt is too long" } };
      }
      return "fits now";
    });
    const stream = agentLoop([userMessage("go")], { messages: history }, { model, streamFn, ...config });
    const events = await collect(stream);
    expect(ofType(events, "compaction").map((e) => e.kind)).toEqual(["summary"]);
    expect(textOf((await stream.result()).at(-1))).toBe("fits now");
    expect(streamFn.calls).toHaveLength(3);
  });
});
