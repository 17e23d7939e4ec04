import { type AgentEvent, type AgentMessage, agentLoop, defaultRetryStrategy } from "@chorus/core";
import { type FakeLlmServer, startFakeAnthropic, startFakeOpenAI } from "@chorus/testkit";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { builtinModels, providerStreamFn, scriptedModel, scriptedProvider } from "../src/index.js";
import { providerCases } from "./provider-matrix.js";
import { clearLlmEnv } from "./stream-collect.js";
import { twoTools } from "./two-tool-conversation.js";

const fakes: FakeLlmServer[] = [];
beforeAll(() => clearLlmEnv());
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const prompt = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const byId = (id: string) => builtinModels.find((m) => m.id === id)!;

async function drain(stream: ReturnType<typeof agentLoop>) {
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  const end = events.find((e) => e.type === "agent_end");
  if (end?.type !== "agent_end") throw new Error("no agent_end");
  return { events, end, messages: await stream.result() };
}

describe("thinking replay across turns through agentLoop", () => {
  it.each(["anthropic", "openai-responses"] as const)(
    "%s gets its own signed reasoning back verbatim",
    async (name) => {
      const provider = providerCases.find((p) => p.name === name)!;
      const setup = await provider.start();
      fakes.push(setup.fake);
      setup.fake.enqueue(
        [
          { type: "thinking", thinking: "I should look it up.", signature: "SIGNED-REASONING-1" },
          { type: "tool_call", name: "get_weather", args: { city: "Oslo" } },
        ],
        [{ type: "text", text: "Oslo: sunny." }],
      );
      const { end } = await drain(
        agentLoop(
          [prompt("Oslo weather?")],
          { messages: [] },
          {
            model: setup.model,
            streamFn: setup.streamFn,
            tools: twoTools,
            streamOptions: { reasoning: "low" },
          },
        ),
      );
      expect(end.reason).toBe("completed");
      const second = JSON.stringify(setup.fake.requests[1]!.body);
      expect(second).toContain("SIGNED-REASONING-1");
      expect(second).toContain("I should look it up.");
    },
  );
});

describe("fallback from an overloaded model to another provider", () => {
  it("continues a conversation begun on Anthropic on OpenAI, dropping Anthropic's thinking", async () => {
    const anthropic = await startFakeAnthropic();
    const openai = await startFakeOpenAI();
    fakes.push(anthropic, openai);
    const streamFn = providerStreamFn({
      anthropic: { apiKey: "sk-ant-test", baseUrl: anthropic.url },
      openai: { apiKey: "sk-test", baseUrl: openai.url },
    });
    anthropic.enqueue(
      [
        { type: "thinking", thinking: "Weather tool.", signature: "ANTHROPIC-SIG" },
        { type: "tool_call", name: "get_weather", args: { city: "Rome" }, id: "toolu_01AbC" },
      ],
      [{ type: "overloaded" }],
    );
    openai.enqueue([{ type: "text", text: "Rome is sunny." }]);
    const { events, end, messages } = await drain(
      agentLoop(
        [prompt("Rome weather?")],
        { messages: [] },
        {
          model: byId("claude-sonnet-4-6"),
          streamFn,
          tools: twoTools,
          fallbackModels: [byId("gpt-4.1")],
          fallbackImmediately: true,
          retryStrategy: defaultRetryStrategy({ baseDelayMs: 1, jitter: 0 }),
        },
      ),
    );
    expect(end.reason).toBe("completed");
    const fallback = events.find((e) => e.type === "model_fallback");
    expect(fallback?.type === "model_fallback" && [fallback.from.id, fallback.to.id]).toEqual([
      "claude-sonnet-4-6",
      "gpt-4.1",
    ]);
    const last = messages.at(-1);
    expect(last && "role" in last && last.role === "assistant" && [last.provider, last.content]).toEqual([
      "openai",
      [{ type: "text", text: "Rome is sunny." }],
    ]);
    const sent = openai.requests[0]!.body as {
      messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
    };
    expect(JSON.stringify(sent)).not.toContain("ANTHROPIC-SIG");
    const call = sent.messages.find((m) => m.role === "assistant")?.tool_calls?.[0];
    const result = sent.messages.find((m) => m.role === "tool");
    expect(call?.id).toBe("toolu_01AbC");
    expect(result?.tool_call_id).toBe(call?.id);
  });
});

describe("context overflow triggers compaction and a successful retry", () => {
  it.each(providerCases)("$name", async (provider) => {
    const setup = await provider.start();
    fakes.push(setup.fake);
    const history: AgentMessage[] = [];
    for (let i = 0; i < 6; i++) {
      history.push(prompt(`Question ${i}: ${"details ".repeat(50)}`));
      history.push({
        role: "assistant",
        content: [{ type: "text", text: `Answer ${i}: ${"words ".repeat(50)}` }],
        api: setup.model.api,
        provider: setup.model.provider,
        model: setup.model.id,
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "stop",
        timestamp: 1,
      });
    }
    setup.fake.enqueue(
      [{ type: "context_overflow" }],
      [{ type: "text", text: "The user asked six questions, all answered." }],
      [{ type: "text", text: "Here is the answer." }],
    );
    const { events, end } = await drain(
      agentLoop(
        [prompt("And the last one?")],
        { messages: history },
        {
          model: setup.model,
          streamFn: setup.streamFn,
          context: { compaction: { keepRecentTokens: 50 } },
        },
      ),
    );
    expect(end.reason).toBe("completed");
    expect(events.some((e) => e.type === "compaction" && e.kind === "summary")).toBe(true);
    expect(events.some((e) => e.type === "retry" && e.error.kind === "context_overflow")).toBe(true);
    expect(setup.fake.requests).toHaveLength(3);
    const retried = JSON.stringify(setup.fake.requests[2]!.body);
    expect(retried).toContain("The user asked six questions, all answered.");
    expect(retried).not.toContain("Question 0");
  });
});

describe("the scripted provider through agentLoop", () => {
  it("runs a tool round trip offline", async () => {
    const streamFn = scriptedProvider([
      { text: "Checking.", toolCalls: [{ name: "get_time", args: { zone: "UTC" } }] },
      "It is 12:00 UTC.",
    ]);
    const { end, messages } = await drain(
      agentLoop([prompt("time?")], { messages: [] }, { model: scriptedModel(), streamFn, tools: twoTools }),
    );
    expect(end.reason).toBe("completed");
    expect(messages.map((m) => ("role" in m ? m.role : "?"))).toEqual(["user", "assistant", "toolResult", "assistant"]);
  });
});
