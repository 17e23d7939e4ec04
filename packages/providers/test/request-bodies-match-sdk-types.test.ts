import type Anthropic from "@anthropic-ai/sdk";
import type { Message } from "@chorus/core";
import { startFakeAnthropic, startFakeOpenAI } from "@chorus/testkit";
import type OpenAI from "openai";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { buildAnthropicRequest } from "../src/anthropic/anthropic-request.js";
import { anthropicStreamFn, builtinModels, openAIStreamFn, resolveChatCompat } from "../src/index.js";
import { buildChatRequest } from "../src/openai/openai-chat-request.js";
import { buildResponsesRequest } from "../src/openai/openai-responses-request.js";
import { clearLlmEnv, collect } from "./stream-collect.js";

beforeAll(() => clearLlmEnv());

const byId = (id: string) => builtinModels.find((m) => m.id === id)!;
const context = {
  systemPrompt: "S",
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
      timestamp: 1,
    },
  ] as Message[],
  tools: [{ name: "t", description: "T", parameters: { type: "object", properties: { a: { type: "string" } } } }],
};

describe("request bodies are the SDKs' own request types, sent unchanged", () => {
  it("Anthropic Messages", async () => {
    const model = byId("claude-sonnet-4-6");
    const built = buildAnthropicRequest(model, context, { reasoning: "medium" }, {}, "drop");
    expectTypeOf(built).toEqualTypeOf<Anthropic.MessageCreateParamsStreaming>();
    const fake = await startFakeAnthropic();
    try {
      fake.enqueue([{ type: "text", text: "ok" }]);
      await collect(anthropicStreamFn({ apiKey: "k", baseUrl: fake.url })(model, context, { reasoning: "medium" }));
      expect(fake.requests[0]!.body).toEqual(JSON.parse(JSON.stringify(built)));
    } finally {
      await fake.close();
    }
  });

  it("OpenAI Chat Completions and Responses", async () => {
    const chatModel = byId("gpt-4.1");
    const responsesModel = byId("gpt-5");
    const chat = buildChatRequest(chatModel, context, { maxTokens: 100 }, resolveChatCompat("openai"));
    const responses = buildResponsesRequest(responsesModel, context, { reasoning: "low" }, "drop");
    expectTypeOf(chat).toEqualTypeOf<OpenAI.Chat.ChatCompletionCreateParamsStreaming>();
    expectTypeOf(responses).toEqualTypeOf<OpenAI.Responses.ResponseCreateParamsStreaming>();
    const fake = await startFakeOpenAI();
    try {
      fake.enqueue([{ type: "text", text: "ok" }], [{ type: "text", text: "ok" }]);
      const streamFn = openAIStreamFn({ apiKey: "k", baseUrl: fake.url });
      await collect(streamFn(chatModel, context, { maxTokens: 100 }));
      await collect(streamFn(responsesModel, context, { reasoning: "low" }));
      expect(fake.requests[0]!.body).toEqual(JSON.parse(JSON.stringify(chat)));
      expect(fake.requests[1]!.body).toEqual(JSON.parse(JSON.stringify(responses)));
      expect(fake.requests[0]!.path).toBe("/v1/chat/completions");
      expect(fake.requests[1]!.path).toBe("/v1/responses");
    } finally {
      await fake.close();
    }
  });
});
