import type Anthropic from "@anthropic-ai/sdk";
import { type AssistantMessage, emptyUsage, type Message } from "@chorus/core";
import { type FakeLlmServer, startFakeAnthropic } from "@chorus/testkit";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { anthropicStreamFn, builtinModels, type Model } from "../src/index.js";
import { clearLlmEnv, collect } from "./stream-collect.js";

let fake: FakeLlmServer;
beforeAll(() => clearLlmEnv());
afterEach(async () => fake?.close());

const model: Model = builtinModels.find((m) => m.id === "claude-sonnet-4-6")!;
const user = (text: string): Message => ({ role: "user", content: text, timestamp: 1 });

async function setup() {
  fake = await startFakeAnthropic();
  return anthropicStreamFn({ apiKey: "sk-ant-test", baseUrl: fake.url });
}

describe("anthropic provider against the fake Messages API", () => {
  it("streams text into start/text events and a done message with usage and cost", async () => {
    const streamFn = await setup();
    fake.enqueue([
      { type: "text", text: "Hello there, friend." },
      { type: "usage", input: 1000, output: 200, cacheRead: 500, cacheWrite: 100 },
    ]);
    const { events, message } = await collect(streamFn(model, { messages: [user("hi")] }));
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "text_start",
      "text_delta",
      "text_delta",
      "text_delta",
      "text_end",
      "done",
    ]);
    expect(message.content).toEqual([{ type: "text", text: "Hello there, friend." }]);
    expect(message.stopReason).toBe("stop");
    expect(message.usage).toMatchObject({
      input: 1000,
      output: 200,
      cacheRead: 500,
      cacheWrite: 100,
      totalTokens: 1800,
    });
    // $3/M input, $15/M output, $0.30/M cache read, $3.75/M cache write.
    expect(message.usage.cost.total).toBeCloseTo(0.003 + 0.003 + 0.00015 + 0.000375, 9);
    expect(message.responseId).toMatch(/^msg_/);
  });

  it("puts cache breakpoints on the system prompt, the last tool and the last user message", async () => {
    const streamFn = await setup();
    fake.enqueue([{ type: "text", text: "ok" }]);
    const tools = [
      { name: "a", description: "A", parameters: { type: "object", properties: {} } },
      { name: "b", description: "B", parameters: { type: "object", properties: {} } },
    ];
    await collect(streamFn(model, { systemPrompt: "Be brief.", messages: [user("one")], tools }));
    const body = fake.requests[0]!.body as unknown as Anthropic.MessageCreateParamsStreaming;
    const ephemeral = { type: "ephemeral" };
    expect(body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: ephemeral }]);
    expect(body.tools?.map((t) => "cache_control" in t && t.cache_control)).toEqual([false, ephemeral]);
    expect(body.messages.at(-1)?.content).toEqual([{ type: "text", text: "one", cache_control: ephemeral }]);
  });

  it("sends no cache breakpoints when caching is off", async () => {
    fake = await startFakeAnthropic();
    const streamFn = anthropicStreamFn({ apiKey: "k", baseUrl: fake.url, cache: false });
    fake.enqueue([{ type: "text", text: "ok" }]);
    await collect(streamFn(model, { systemPrompt: "S", messages: [user("one")] }));
    expect(JSON.stringify(fake.requests[0]!.body)).not.toContain("cache_control");
  });

  it("replays thinking and redacted thinking verbatim on the next turn", async () => {
    const streamFn = await setup();
    fake.enqueue(
      [
        { type: "thinking", thinking: "Need the tool.", signature: "sig-A" },
        { type: "redacted_thinking", data: "opaque-B" },
        { type: "tool_call", name: "lookup", args: { q: "x" }, id: "toolu_1" },
      ],
      [{ type: "text", text: "Found it." }],
    );
    const first = await collect(streamFn(model, { messages: [user("find x")] }, { reasoning: "low", maxTokens: 1000 }));
    expect(first.message.content).toEqual([
      { type: "thinking", thinking: "Need the tool.", signature: "sig-A" },
      { type: "thinking", thinking: "", redacted: true, signature: "opaque-B" },
      { type: "toolCall", id: "toolu_1", name: "lookup", arguments: { q: "x" } },
    ]);
    expect(first.message.stopReason).toBe("toolUse");
    expect(fake.requests[0]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(fake.requests[0]!.body.max_tokens).toBeGreaterThan(2048);
    const history: Message[] = [
      user("find x"),
      first.message,
      {
        role: "toolResult",
        toolCallId: "toolu_1",
        toolName: "lookup",
        content: [{ type: "text", text: "x=1" }],
        isError: false,
        timestamp: 2,
      },
    ];
    await collect(streamFn(model, { messages: history }, { reasoning: "low" }));
    const sent = fake.requests[1]!.body as unknown as Anthropic.MessageCreateParamsStreaming;
    expect(sent.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Need the tool.", signature: "sig-A" },
        { type: "redacted_thinking", data: "opaque-B" },
        { type: "tool_use", id: "toolu_1", name: "lookup", input: { q: "x" } },
      ],
    });
    expect(sent.messages[2]).toMatchObject({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", is_error: false, content: [{ type: "text", text: "x=1" }] },
      ],
    });
  });

  it("maps stop reasons: max_tokens is length, pause_turn is stop, refusal is an error", async () => {
    const streamFn = await setup();
    fake.enqueue(
      [
        { type: "text", text: "a" },
        { type: "stop", reason: "length" },
      ],
      [
        { type: "text", text: "b" },
        { type: "stop", reason: "pause" },
      ],
      [{ type: "stop", reason: "refusal" }],
    );
    const results: AssistantMessage[] = [];
    for (let i = 0; i < 3; i++) results.push((await collect(streamFn(model, { messages: [user("x")] }))).message);
    expect(results.map((m) => m.stopReason)).toEqual(["length", "stop", "error"]);
    expect(results[2]!.error?.kind).toBe("invalid_request");
  });

  it("authenticates with an OAuth token when there is no API key", async () => {
    fake = await startFakeAnthropic();
    const streamFn = anthropicStreamFn({ authToken: "oauth-token", baseUrl: fake.url });
    fake.enqueue([{ type: "text", text: "ok" }]);
    const { message } = await collect(streamFn(model, { messages: [user("x")] }));
    expect(message.stopReason).toBe("stop");
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer oauth-token");
    expect(fake.requests[0]!.headers["anthropic-beta"]).toContain("oauth");
  });

  it("without credentials fails as auth, naming the variable to set, and sends nothing", async () => {
    fake = await startFakeAnthropic();
    const streamFn = anthropicStreamFn({ baseUrl: fake.url });
    const { message } = await collect(streamFn(model, { messages: [user("x")] }));
    expect(message.error?.kind).toBe("auth");
    expect(message.errorMessage).toContain("ANTHROPIC_API_KEY");
    expect(fake.requests).toHaveLength(0);
  });

  it("holds thinking back while answering a tool call another provider made", async () => {
    const streamFn = await setup();
    fake.enqueue([{ type: "text", text: "ok" }], [{ type: "text", text: "ok" }]);
    const foreign: AssistantMessage = {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_1", name: "lookup", arguments: {} }],
      api: "openai-chat",
      provider: "openai",
      model: "gpt-4.1",
      usage: emptyUsage(),
      stopReason: "toolUse",
      timestamp: 2,
    };
    const result: Message = {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "lookup",
      content: [{ type: "text", text: "1" }],
      isError: false,
      timestamp: 3,
    };
    await collect(streamFn(model, { messages: [user("x"), foreign, result] }, { reasoning: "low" }));
    expect(fake.requests[0]!.body.thinking).toBeUndefined();
    const answered: AssistantMessage = { ...foreign, content: [{ type: "text", text: "1" }], stopReason: "stop" };
    const nextTurn = [user("x"), foreign, result, answered, user("next")];
    await collect(streamFn(model, { messages: nextTurn }, { reasoning: "low" }));
    expect(fake.requests[1]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
  });
});

describe("anthropic cache tier (seed 003 step 15)", () => {
  it("ttl auto: 5 minutes below the 1024-token caching minimum, 1 hour once the input clears it", async () => {
    fake = await startFakeAnthropic();
    const streamFn = anthropicStreamFn({ apiKey: "k", baseUrl: fake.url, cache: { ttl: "auto" } });
    fake.enqueue([{ type: "text", text: "a" }], [{ type: "text", text: "b" }]);
    await collect(streamFn(model, { systemPrompt: "Be brief.", messages: [user("short")] }));
    await collect(streamFn(model, { systemPrompt: "Be brief.", messages: [user("long ".repeat(1000))] }));
    const [small, large] = fake.requests.map((r) => r.body as unknown as Anthropic.MessageCreateParams);
    expect(small!.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
    expect(large!.system).toEqual([
      { type: "text", text: "Be brief.", cache_control: { type: "ephemeral", ttl: "1h" } },
    ]);
    const last = large!.messages.at(-1)?.content as Anthropic.TextBlockParam[];
    expect(last.at(-1)?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
  });
});
