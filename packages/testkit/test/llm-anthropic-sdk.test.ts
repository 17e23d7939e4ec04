import Anthropic from "@anthropic-ai/sdk";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeLlmServer, startFakeAnthropic } from "../src/llm/index.js";
import { clearLlmEnv } from "./llm-env.js";

let fake: FakeLlmServer;
beforeAll(() => clearLlmEnv());
afterEach(async () => fake?.close());

function client(): Anthropic {
  return new Anthropic({ baseURL: fake.url, apiKey: "sk-ant-test", maxRetries: 0 });
}

const request = {
  model: "claude-sonnet-4-6",
  max_tokens: 1024,
  messages: [{ role: "user" as const, content: "hi" }],
};

describe("fake Anthropic with the real SDK", () => {
  it("streams text, thinking with signature and a tool call that the SDK assembles", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue([
      { type: "thinking", thinking: "The user wants the weather.", signature: "sig-123" },
      { type: "text", text: "Let me check the weather." },
      { type: "tool_call", name: "get_weather", args: { city: "Paris", unit: "C" }, id: "toolu_1" },
      { type: "usage", input: 42, output: 17, cacheRead: 5, cacheWrite: 3 },
    ]);
    const message = await client().messages.stream(request).finalMessage();
    expect(message.content).toEqual([
      { type: "thinking", thinking: "The user wants the weather.", signature: "sig-123" },
      { type: "text", text: "Let me check the weather." },
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris", unit: "C" } },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage).toMatchObject({
      input_tokens: 42,
      output_tokens: 17,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 3,
    });
  });

  it("records the request headers and JSON body", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue([{ type: "text", text: "ok" }]);
    await client().messages.stream(request).finalMessage();
    expect(fake.requests).toHaveLength(1);
    const recorded = fake.requests[0]!;
    expect(recorded.path).toBe("/v1/messages");
    expect(recorded.body).toMatchObject({ ...request, stream: true });
    expect(recorded.headers["anthropic-version"]).toBeDefined();
    const auth = recorded.headers["x-api-key"] ?? recorded.headers.authorization;
    expect(auth).toContain("sk-ant-test");
  });

  it("plays scripts in order and builds a script from the request when given a function", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue([{ type: "text", text: "first" }], (req) => [
      { type: "text", text: `echo ${String((req.body.messages as { content: string }[])[0]?.content)}` },
    ]);
    const first = await client().messages.stream(request).finalMessage();
    const second = await client().messages.stream(request).finalMessage();
    expect(first.content).toMatchObject([{ type: "text", text: "first" }]);
    expect(second.content).toMatchObject([{ type: "text", text: "echo hi" }]);
    expect(fake.pending()).toBe(0);
  });

  it("maps neutral stop reasons to the Messages API's values", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(
      [
        { type: "text", text: "cut short" },
        { type: "stop", reason: "length" },
      ],
      [{ type: "stop", reason: "refusal" }],
      [{ type: "stop", reason: "pause" }],
    );
    const reasons: (string | null)[] = [];
    for (let i = 0; i < 3; i++) reasons.push((await client().messages.stream(request).finalMessage()).stop_reason);
    expect(reasons).toEqual(["max_tokens", "refusal", "pause_turn"]);
  });

  it("streams redacted thinking as an opaque block", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue([
      { type: "redacted_thinking", data: "opaque==" },
      { type: "text", text: "done" },
    ]);
    const message = await client().messages.stream(request).finalMessage();
    expect(message.content[0]).toEqual({ type: "redacted_thinking", data: "opaque==" });
  });
});
