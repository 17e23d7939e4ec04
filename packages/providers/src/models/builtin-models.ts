import type { Model } from "@chorus/core";
import { API } from "./api-names.js";

/** Rounds away binary floating-point noise (3 × 0.1 = 0.30000000000000004). */
const roundPrice = (price: number): number => Math.round(price * 1e6) / 1e6;

const claude = (
  id: string,
  name: string,
  prices: [input: number, output: number],
  contextWindow = 200_000,
  maxOutput = 64_000,
): Model => ({
  id,
  name,
  provider: "anthropic",
  api: API.anthropic,
  contextWindow,
  maxOutput,
  // Anthropic: cache reads cost 0.1× input, 5-minute cache writes 1.25× input.
  cost: {
    input: prices[0],
    output: prices[1],
    cacheRead: roundPrice(prices[0] * 0.1),
    cacheWrite: roundPrice(prices[0] * 1.25),
  },
  // Every Claude model reads PDFs (text and page images).
  capabilities: { tools: true, thinking: true, images: true, documents: true },
});

const gpt = (
  id: string,
  name: string,
  prices: [input: number, output: number, cacheRead: number],
  api: string,
  contextWindow: number,
  maxOutput: number,
  thinking: boolean,
): Model => ({
  id,
  name,
  provider: "openai",
  api,
  contextWindow,
  maxOutput,
  // OpenAI caches automatically and does not charge for cache writes.
  cost: { input: prices[0], output: prices[1], cacheRead: prices[2], cacheWrite: 0 },
  // Every model listed here takes images and PDF files (`file` / `input_file` parts).
  capabilities: { tools: true, thinking, images: true, documents: true },
});

/**
 * The curated built-in models, with list prices in US dollars per million tokens as published
 * by the vendors when this list was written. Prices move: override with `registry.register`.
 */
export const builtinModels: readonly Model[] = [
  claude("claude-opus-4-5", "Claude Opus 4.5", [5, 25]),
  claude("claude-sonnet-4-6", "Claude Sonnet 4.6", [3, 15]),
  claude("claude-haiku-4-5", "Claude Haiku 4.5", [1, 5]),
  gpt("gpt-5", "GPT-5", [1.25, 10, 0.125], API.openaiResponses, 400_000, 128_000, true),
  gpt("gpt-5-mini", "GPT-5 mini", [0.25, 2, 0.025], API.openaiResponses, 400_000, 128_000, true),
  gpt("gpt-5-nano", "GPT-5 nano", [0.05, 0.4, 0.005], API.openaiResponses, 400_000, 128_000, true),
  gpt("gpt-4.1", "GPT-4.1", [2, 8, 0.5], API.openaiChat, 1_047_576, 32_768, false),
  gpt("gpt-4.1-mini", "GPT-4.1 mini", [0.4, 1.6, 0.1], API.openaiChat, 1_047_576, 32_768, false),
  gpt("gpt-4o", "GPT-4o", [2.5, 10, 1.25], API.openaiChat, 128_000, 16_384, false),
  gpt("gpt-4o-mini", "GPT-4o mini", [0.15, 0.6, 0.075], API.openaiChat, 128_000, 16_384, false),
  gpt("o3", "o3", [2, 8, 0.5], API.openaiResponses, 200_000, 100_000, true),
  gpt("o4-mini", "o4-mini", [1.1, 4.4, 0.275], API.openaiResponses, 200_000, 100_000, true),
];
