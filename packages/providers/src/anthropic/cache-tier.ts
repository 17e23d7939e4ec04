import type Anthropic from "@anthropic-ai/sdk";

/** Anthropic caches nothing shorter than this many tokens (Sonnet/Opus minimum). */
export const MIN_CACHEABLE_TOKENS = 1024;

/**
 * Seed 003 step 15 (`pick_cache_tier`): the 1-hour cache tier once the request's estimated input
 * (≈ 4 characters per token of system, tools and messages) clears the 1024-token minimum, else 5 minutes.
 * Contract: a pure function of the request's content.
 */
export function pickCacheTier(request: {
  system: readonly Anthropic.TextBlockParam[] | undefined;
  tools: readonly Anthropic.Tool[] | undefined;
  messages: readonly Anthropic.MessageParam[];
}): "5m" | "1h" {
  const characters =
    JSON.stringify(request.system ?? "").length +
    JSON.stringify(request.tools ?? []).length +
    JSON.stringify(request.messages).length;
  return characters / 4 >= MIN_CACHEABLE_TOKENS ? "1h" : "5m";
}
