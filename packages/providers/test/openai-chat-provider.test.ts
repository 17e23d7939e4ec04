import type { Message } from "@chorus/core";
import { type FakeLlmServer, startFakeOpenAI } from "@chorus/testkit";
import type OpenAI from "openai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { builtinModels, compatibleModel, openAICompatibleStreamFn, openAIStreamFn } from "../src/index.js";
import { clearLlmEnv, collect } from "./stream-collect.js";

let fake: FakeLlmServer;
beforeAll(() => clearLlmEnv());
afterEach(async () => fake?.close());

const user = (text: string): Message => ({ role: "user", content: text, timestamp: 1 });
const gpt41 = builtinModels.find((m) => m.id === "gpt-4.1")!;
const tools = [{ name: "get_weather", description: "Weather", parameters: { type: "object", properties: {} } }];

describe("openai chat provider against the fake", () => {
  it("assembles two parallel tool calls by index and sends usage options", async () => {
    fake = await startFakeOpenAI();
    const streamFn = openAIStreamFn({ apiKey: "sk-test", baseUrl: fake.url });
    fake.enqueue([
      { type: "text", text: "Checking." },
      { type: "tool_call", name: "get_weather", args: { city: "Paris" }, id: "call_a" },
      { type: "tool_call", name: "get_weather", args: { city: "Oslo" }, id: "call_b" },
      { type: "usage", input: 100, output: 20, cacheRead: 50 },
    ]);
    const { events, message } = await collect(streamFn(gpt41, { systemPrompt: "S", messages: [user("w?")], tools }));
    expect(message.content).toEqual([
      { type: "text", text: "Checking." },
      { type: "toolCall", id: "call_a", name: "get_weather", arguments: { city: "Paris" } },
      { type: "toolCall", id: "call_b", name: "get_weather", arguments: { city: "Oslo" } },
    ]);
    expect(events.filter((e) => e.type === "toolcall_end")).toHaveLength(2);
    expect(message.stopReason).toBe("toolUse");
    expect(message.usage).toMatchObject({ input: 100, cacheRead: 50, output: 20 });
    // gpt-4.1: $2/M input, $8/M output, $0.50/M cached.
    expect(message.usage.cost.total).toBeCloseTo((100 * 2 + 20 * 8 + 50 * 0.5) / 1e6, 12);
    const body = fake.requests[0]!.body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming;
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.messages[0]).toEqual({ role: "system", content: "S" });
    expect(body.tools?.[0]).toMatchObject({ type: "function", function: { name: "get_weather" } });
  });

  it("sends tool results as tool messages and thinking never goes back", async () => {
    fake = await startFakeOpenAI();
    const streamFn = openAIStreamFn({ apiKey: "sk-test", baseUrl: fake.url });
    fake.enqueue([{ type: "text", text: "done" }]);
    const history: Message[] = [
      user("w?"),
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", signature: "s" },
          { type: "toolCall", id: "call_a", name: "get_weather", arguments: { city: "Paris" } },
        ],
        api: "openai-chat",
        provider: "openai",
        model: "gpt-4.1",
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "toolUse",
        timestamp: 2,
      },
      {
        role: "toolResult",
        toolCallId: "call_a",
        toolName: "get_weather",
        content: [{ type: "text", text: "sunny" }],
        isError: false,
        timestamp: 3,
      },
    ];
    await collect(streamFn(gpt41, { messages: history, tools }, { maxTokens: 500 }));
    const body = fake.requests[0]!.body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming;
    expect(body.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "sunny" },
    ]);
    expect(body.max_completion_tokens).toBe(500);
  });
});

describe("openai-compatible provider follows the per-server table", () => {
  it("vLLM: max_tokens, system role, reasoning from reasoning_content", async () => {
    fake = await startFakeOpenAI({ chatReasoningField: "reasoning_content" });
    const model = compatibleModel({
      id: "qwen3",
      provider: "vllm",
      baseUrl: fake.url,
      capabilities: { tools: true, thinking: true, images: false },
    });
    const streamFn = openAICompatibleStreamFn({ baseUrl: fake.url });
    fake.enqueue([
      { type: "thinking", thinking: "let me think", signature: "-" },
      { type: "text", text: "42" },
    ]);
    const { message } = await collect(streamFn(model, { systemPrompt: "S", messages: [user("q")] }, { maxTokens: 64 }));
    expect(message.content).toEqual([
      { type: "thinking", thinking: "let me think" },
      { type: "text", text: "42" },
    ]);
    const body = fake.requests[0]!.body;
    expect(body.max_tokens).toBe(64);
    expect(body.max_completion_tokens).toBeUndefined();
    expect((body.messages as { role: string }[])[0]?.role).toBe("system");
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer not-needed");
  });

  it("Ollama: reasoning arrives in `reasoning`", async () => {
    fake = await startFakeOpenAI({ chatReasoningField: "reasoning" });
    const model = compatibleModel({ id: "llama3.2", provider: "ollama", baseUrl: fake.url });
    const streamFn = openAICompatibleStreamFn({ baseUrl: fake.url });
    fake.enqueue([
      { type: "thinking", thinking: "ok then", signature: "-" },
      { type: "text", text: "hi" },
    ]);
    const { message } = await collect(streamFn(model, { messages: [user("q")] }));
    expect(message.content[0]).toEqual({ type: "thinking", thinking: "ok then" });
  });

  it("OpenRouter needs a key and names the variable when it is missing", async () => {
    fake = await startFakeOpenAI();
    const model = compatibleModel({ id: "anthropic/claude-sonnet-4.6", provider: "openrouter", baseUrl: fake.url });
    const streamFn = openAICompatibleStreamFn({ baseUrl: fake.url });
    const { message } = await collect(streamFn(model, { messages: [user("q")] }));
    expect(message.error?.kind).toBe("auth");
    expect(message.errorMessage).toContain("OPENROUTER_API_KEY");
    expect(fake.requests).toHaveLength(0);
  });
});
