import OpenAI from "openai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeLlmScript, type FakeLlmServer, startFakeOpenAI } from "../src/llm/index.js";
import { clearLlmEnv } from "./llm-env.js";

let fake: FakeLlmServer;
beforeAll(() => clearLlmEnv());
afterEach(async () => fake?.close());

function client(): OpenAI {
  return new OpenAI({ baseURL: fake.url, apiKey: "sk-test", maxRetries: 0 });
}

const twoTools: FakeLlmScript = [
  { type: "thinking", thinking: "Two lookups needed.", signature: "enc-abc" },
  { type: "text", text: "Checking both." },
  { type: "tool_call", name: "get_weather", args: { city: "Paris" }, id: "call_a" },
  { type: "tool_call", name: "get_time", args: { zone: "CET" }, id: "call_b" },
  { type: "usage", input: 30, output: 12, cacheRead: 8, reasoning: 4 },
];

describe("fake OpenAI Chat Completions with the real SDK", () => {
  it("streams text and two tool calls by index, then usage and [DONE]", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue(twoTools);
    const stream = client().chat.completions.stream({
      model: "gpt-4o",
      messages: [{ role: "user", content: "weather and time?" }],
      stream_options: { include_usage: true },
    });
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0]!;
    expect(choice.message.content).toBe("Checking both.");
    expect(choice.finish_reason).toBe("tool_calls");
    expect(
      choice.message.tool_calls?.map((c) => c.type === "function" && [c.id, c.function.name, c.function.arguments]),
    ).toEqual([
      ["call_a", "get_weather", '{"city":"Paris"}'],
      ["call_b", "get_time", '{"zone":"CET"}'],
    ]);
    expect(completion.usage).toMatchObject({
      prompt_tokens: 38,
      completion_tokens: 12,
      prompt_tokens_details: { cached_tokens: 8 },
      completion_tokens_details: { reasoning_tokens: 4 },
    });
    expect(fake.requests[0]?.path).toBe("/v1/chat/completions");
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer sk-test");
  });

  it("streams thinking in reasoning_content when configured like an OpenAI-compatible server", async () => {
    fake = await startFakeOpenAI({ chatReasoningField: "reasoning_content" });
    fake.enqueue([
      { type: "thinking", thinking: "hmm ok", signature: "x" },
      { type: "text", text: "yes" },
    ]);
    const stream = await client().chat.completions.create({
      model: "deepseek-r1",
      messages: [{ role: "user", content: "?" }],
      stream: true,
    });
    let reasoning = "";
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? "";
    }
    expect(reasoning).toBe("hmm ok");
  });

  it("omits the usage chunk when include_usage is not asked for", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue([{ type: "text", text: "hi" }]);
    const stream = await client().chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "?" }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((c) => c.usage)).toBe(false);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
  });
});

describe("fake OpenAI Responses with the real SDK", () => {
  it("streams reasoning with encrypted content, a message and function calls", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue(twoTools);
    const stream = client().responses.stream({
      model: "gpt-5",
      input: "weather and time?",
      store: false,
      include: ["reasoning.encrypted_content"],
    });
    const response = await stream.finalResponse();
    expect(response.status).toBe("completed");
    expect(response.output.map((item) => item.type)).toEqual([
      "reasoning",
      "message",
      "function_call",
      "function_call",
    ]);
    expect(response.output[0]).toMatchObject({
      type: "reasoning",
      encrypted_content: "enc-abc",
      summary: [{ type: "summary_text", text: "Two lookups needed." }],
    });
    expect(response.output_text).toBe("Checking both.");
    expect(response.output[3]).toMatchObject({ type: "function_call", call_id: "call_b", arguments: '{"zone":"CET"}' });
    expect(response.usage).toMatchObject({
      input_tokens: 38,
      output_tokens: 12,
      input_tokens_details: { cached_tokens: 8 },
    });
    expect(fake.requests[0]?.body).toMatchObject({ store: false, stream: true });
  });

  it("numbers events in sequence and ends a length stop with response.incomplete", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue([
      { type: "text", text: "a b c" },
      { type: "stop", reason: "length" },
    ]);
    const stream = await client().responses.create({ model: "gpt-5", input: "?", stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const last = events.at(-1);
    expect(last?.type).toBe("response.incomplete");
    expect(last?.type === "response.incomplete" && last.response.incomplete_details?.reason).toBe("max_output_tokens");
  });
});

describe("fake OpenAI answering every request (answerEvery)", () => {
  it("plays the script written from each request when nothing is queued, and a queued script first", async () => {
    fake = await startFakeOpenAI({
      answerEvery: (request) => {
        const messages = request.body.messages as Array<{ content: string }>;
        return [{ type: "text", text: `ok ${messages.at(-1)?.content}`, chunks: 1 }];
      },
    });
    fake.enqueue([{ type: "text", text: "queued first" }]);
    const ask = async (content: string) => {
      const stream = client().chat.completions.stream({ model: "gpt-4o", messages: [{ role: "user", content }] });
      return (await stream.finalChatCompletion()).choices[0]?.message.content;
    };
    expect(await ask("one")).toBe("queued first");
    expect(await ask("two")).toBe("ok two");
    expect(await ask("three")).toBe("ok three");
    expect(fake.pending()).toBe(0);
  });
});
