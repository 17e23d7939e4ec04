import { emptyUsage, type Message } from "@chorus/core";
import { type FakeLlmServer, startFakeAnthropic, startFakeOpenAI } from "@chorus/testkit";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { anthropicStreamFn, builtinModels, type Model, openAIStreamFn } from "../src/index.js";
import { clearLlmEnv, collect } from "./stream-collect.js";

let fake: FakeLlmServer | undefined;
beforeAll(() => clearLlmEnv());
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const claude: Model = builtinModels.find((m) => m.id === "claude-sonnet-4-6")!;
const gpt: Model = builtinModels.find((m) => m.id === "gpt-4.1")!;

// What an older Chorus stored for a Telegram photo without a caption, then the chat went on.
const transcript: Message[] = [
  { role: "user", content: "", timestamp: 1 },
  { role: "user", content: [{ type: "text", text: "   " }], timestamp: 2 },
  {
    role: "assistant",
    content: [{ type: "text", text: "" }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-6",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: 3,
  },
  { role: "user", content: "what now?", timestamp: 4 },
];

function texts(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const message of (body.messages ?? body.input ?? []) as { content?: unknown }[]) {
    if (typeof message.content === "string") out.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const block of message.content as { text?: unknown }[])
        if (typeof block.text === "string") out.push(block.text);
    }
  }
  return out;
}

describe("no empty content block reaches a provider", () => {
  it("the fake Anthropic refuses an empty text block with 400, as the real API does", async () => {
    fake = await startFakeAnthropic();
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-sonnet-4-6",
        max_tokens: 10,
        stream: true,
        messages: [{ role: "user", content: [{ type: "text", text: "" }] }],
      }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("text content blocks must be non-empty");
  });

  it("Anthropic: blank messages of a stored transcript are left out and the call succeeds", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue([{ type: "text", text: "Answered." }]);
    const streamFn = anthropicStreamFn({ apiKey: "sk-ant-test", baseUrl: fake.url });
    const { message } = await collect(streamFn(claude, { messages: transcript }));
    expect(message.stopReason).toBe("stop");
    expect(message.content).toEqual([{ type: "text", text: "Answered." }]);
    const body = fake.requests[0]!.body;
    expect(texts(body).every((text) => text.trim() !== "")).toBe(true);
    expect((body.messages as { role: string }[]).map((m) => m.role)).toEqual(["user"]);
  });

  it("OpenAI: no blank user message is sent either", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue([{ type: "text", text: "Answered." }]);
    const streamFn = openAIStreamFn({ apiKey: "sk-test", baseUrl: fake.url });
    await collect(streamFn(gpt, { messages: transcript }));
    expect(texts(fake.requests[0]!.body).every((text) => text.trim() !== "")).toBe(true);
  });
});
