// Test-only: the four wire paths, each as a real SDK StreamFn pointed at a fresh fake server.
import type { Model, StreamFn } from "@chorus/core";
import { type FakeLlmServer, startFakeAnthropic, startFakeOpenAI } from "@chorus/testkit";
import {
  anthropicStreamFn,
  builtinModels,
  compatibleModel,
  openAICompatibleStreamFn,
  openAIStreamFn,
  type StreamLimits,
} from "../src/index.js";

export interface ProviderSetup {
  fake: FakeLlmServer;
  streamFn: StreamFn;
  model: Model;
}

export interface ProviderCase {
  name: "anthropic" | "openai-chat" | "openai-responses" | "openai-compatible";
  start(limits?: StreamLimits): Promise<ProviderSetup>;
}

const byId = (id: string): Model => builtinModels.find((m) => m.id === id)!;

export const providerCases: ProviderCase[] = [
  {
    name: "anthropic",
    async start(limits = {}) {
      const fake = await startFakeAnthropic();
      return {
        fake,
        streamFn: anthropicStreamFn({ apiKey: "sk-ant-test", baseUrl: fake.url, ...limits }),
        model: byId("claude-sonnet-4-6"),
      };
    },
  },
  {
    name: "openai-chat",
    async start(limits = {}) {
      const fake = await startFakeOpenAI();
      return {
        fake,
        streamFn: openAIStreamFn({ apiKey: "sk-test", baseUrl: fake.url, ...limits }),
        model: byId("gpt-4.1"),
      };
    },
  },
  {
    name: "openai-responses",
    async start(limits = {}) {
      const fake = await startFakeOpenAI();
      return {
        fake,
        streamFn: openAIStreamFn({ apiKey: "sk-test", baseUrl: fake.url, ...limits }),
        model: byId("gpt-5"),
      };
    },
  },
  {
    name: "openai-compatible",
    async start(limits = {}) {
      const fake = await startFakeOpenAI({ chatReasoningField: "reasoning_content" });
      return {
        fake,
        streamFn: openAICompatibleStreamFn({ baseUrl: fake.url, server: "vllm", ...limits }),
        model: compatibleModel({ id: "qwen3-8b", provider: "vllm", baseUrl: fake.url }),
      };
    },
  },
];
