import type { Message } from "@chorus/core";
import { type FakeLlmServer, startFakeOpenAI } from "@chorus/testkit";
import type OpenAI from "openai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { builtinModels, openAIResponsesStreamFn } from "../src/index.js";
import { clearLlmEnv, collect } from "./stream-collect.js";

let fake: FakeLlmServer;
beforeAll(() => clearLlmEnv());
afterEach(async () => fake?.close());

const user = (text: string): Message => ({ role: "user", content: text, timestamp: 1 });
const gpt5 = builtinModels.find((m) => m.id === "gpt-5")!;

describe("openai responses provider against the fake", () => {
  it("replays reasoning items with encrypted_content, statelessly, on the next turn", async () => {
    fake = await startFakeOpenAI();
    const streamFn = openAIResponsesStreamFn({ apiKey: "sk-test", baseUrl: fake.url });
    fake.enqueue(
      [
        { type: "thinking", thinking: "Use the tool.", signature: "ENC-1" },
        { type: "tool_call", name: "lookup", args: { q: "x" }, id: "call_1" },
      ],
      [{ type: "text", text: "x is 1" }],
    );
    const first = await collect(
      streamFn(gpt5, { systemPrompt: "S", messages: [user("x?")] }, { reasoning: "high", sessionId: "s-1" }),
    );
    expect(first.message.content).toMatchObject([
      { type: "thinking", thinking: "Use the tool." },
      { type: "toolCall", id: "call_1", name: "lookup", arguments: { q: "x" } },
    ]);
    expect(first.message.stopReason).toBe("toolUse");
    const firstBody = fake.requests[0]!.body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming;
    expect(firstBody).toMatchObject({
      store: false,
      instructions: "S",
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "high", summary: "auto" },
      prompt_cache_key: "s-1",
    });
    const history: Message[] = [
      user("x?"),
      first.message,
      {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: "lookup",
        content: [{ type: "text", text: "1" }],
        isError: false,
        timestamp: 2,
      },
    ];
    const second = await collect(streamFn(gpt5, { messages: history }));
    expect(second.message.content).toEqual([{ type: "text", text: "x is 1" }]);
    const input = (fake.requests[1]!.body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming).input;
    expect(input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "x?" }] },
      {
        type: "reasoning",
        id: expect.stringMatching(/^rs_/),
        summary: [{ type: "summary_text", text: "Use the tool." }],
        encrypted_content: "ENC-1",
      },
      { type: "function_call", call_id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
      { type: "function_call_output", call_id: "call_1", output: "1" },
    ]);
  });

  it("an incomplete response is a length stop with usage", async () => {
    fake = await startFakeOpenAI();
    const streamFn = openAIResponsesStreamFn({ apiKey: "sk-test", baseUrl: fake.url });
    fake.enqueue([
      { type: "text", text: "cut" },
      { type: "stop", reason: "length" },
      { type: "usage", input: 10, output: 5 },
    ]);
    const { message } = await collect(streamFn(gpt5, { messages: [user("q")] }));
    expect(message.stopReason).toBe("length");
    expect(message.usage).toMatchObject({ input: 10, output: 5 });
  });
});
