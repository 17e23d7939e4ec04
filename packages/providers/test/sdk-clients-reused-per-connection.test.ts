import type { Message } from "@chorus/core";
import { type FakeLlmServer, startFakeAnthropic, startFakeOpenAI } from "@chorus/testkit";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { anthropicStreamFn, builtinModels, openAIStreamFn } from "../src/index.js";
import { clearLlmEnv, collect } from "./stream-collect.js";

// The providers keep one SDK client per connection settings; these prove a kept client never carries one call's
// key or headers into another call.
let fake: FakeLlmServer;
beforeAll(() => clearLlmEnv());
afterEach(async () => fake?.close());

const user = (text: string): Message => ({ role: "user", content: text, timestamp: 1 });
const gpt41 = builtinModels.find((m) => m.id === "gpt-4.1")!;
const sonnet = builtinModels.find((m) => m.id === "claude-sonnet-4-6")!;

describe("SDK clients kept across calls", () => {
  it("OpenAI: each call reaches the server with its own key and headers, repeated calls keep answering", async () => {
    fake = await startFakeOpenAI();
    const streamFn = openAIStreamFn({ apiKey: "sk-provider", baseUrl: fake.url });
    for (let i = 0; i < 4; i++) fake.enqueue([{ type: "text", text: `answer ${i}` }]);
    const first = await collect(streamFn(gpt41, { messages: [user("a")] }));
    const second = await collect(streamFn(gpt41, { messages: [user("b")] }, { apiKey: "sk-per-call" }));
    const third = await collect(streamFn(gpt41, { messages: [user("c")] }, { headers: { "x-tenant": "t1" } }));
    const fourth = await collect(streamFn(gpt41, { messages: [user("d")] }));
    expect([first, second, third, fourth].map(({ message }) => message.content)).toEqual(
      [0, 1, 2, 3].map((i) => [{ type: "text", text: `answer ${i}` }]),
    );
    expect(fake.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-provider",
      "Bearer sk-per-call",
      "Bearer sk-provider",
      "Bearer sk-provider",
    ]);
    expect(fake.requests.map((request) => request.headers["x-tenant"])).toEqual([
      undefined,
      undefined,
      "t1",
      undefined,
    ]);
  });

  it("Anthropic: each call reaches the server with its own key, repeated calls keep answering", async () => {
    fake = await startFakeAnthropic();
    const streamFn = anthropicStreamFn({ apiKey: "sk-ant-provider", baseUrl: fake.url });
    for (let i = 0; i < 3; i++) fake.enqueue([{ type: "text", text: `answer ${i}` }]);
    const results = [
      await collect(streamFn(sonnet, { messages: [user("a")] })),
      await collect(streamFn(sonnet, { messages: [user("b")] }, { apiKey: "sk-ant-per-call" })),
      await collect(streamFn(sonnet, { messages: [user("c")] })),
    ];
    expect(results.map(({ message }) => message.content)).toEqual(
      [0, 1, 2].map((i) => [{ type: "text", text: `answer ${i}` }]),
    );
    expect(fake.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-ant-provider",
      "Bearer sk-ant-per-call",
      "Bearer sk-ant-provider",
    ]);
  });
});
