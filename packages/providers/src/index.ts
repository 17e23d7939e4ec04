// @chorus/providers: model providers for @chorus/core.
export type { Model } from "@chorus/core";
export type { Script, ScriptedReply, ScriptedStreamFn, ScriptedTurn } from "@chorus/core/testing";
export type { AnthropicCacheOptions } from "./anthropic/anthropic-request.js";
export { type AnthropicProviderOptions, anthropicStreamFn } from "./anthropic/anthropic-stream-fn.js";
export { MIN_CACHEABLE_TOKENS, pickCacheTier } from "./anthropic/cache-tier.js";
export { type ClassifyContext, classifyProviderError } from "./errors/classify-error.js";
export { isContextOverflowText } from "./errors/context-overflow.js";
export { type HeaderLookup, retryAfterMs } from "./errors/retry-after.js";
export { prepareMessagesFor, type ThinkingHandoff } from "./handoff/prepare-messages.js";
export { normalizeToolCallId } from "./handoff/tool-call-id.js";
export { API, type ApiName } from "./models/api-names.js";
export { builtinModels } from "./models/builtin-models.js";
export { calculateCost, usageWithCost } from "./models/calculate-cost.js";
export { compatibleModel, InvalidModelError, ModelRegistry, UnknownModelError } from "./models/model-registry.js";
export {
  type ChatCompat,
  chatCompatTable,
  genericChatCompat,
  type KnownChatServer,
  resolveChatCompat,
} from "./openai/chat-compat.js";
export { type OpenAIChatOptions, openAIChatStreamFn } from "./openai/openai-chat-stream-fn.js";
export type { OpenAIConnection } from "./openai/openai-client.js";
export { type OpenAICompatibleOptions, openAICompatibleStreamFn } from "./openai/openai-compatible-stream-fn.js";
export { type OpenAIResponsesOptions, openAIResponsesStreamFn } from "./openai/openai-responses-stream-fn.js";
export { type OpenAIProviderOptions, openAIStreamFn } from "./openai/openai-stream-fn.js";
export { type ProviderStreamFnOptions, providerStreamFn } from "./provider-stream-fn.js";
export { type ScriptedProviderOptions, scriptedModel, scriptedProvider } from "./scripted/scripted-provider.js";
export type { Chunking } from "./scripted/tokenize-turn.js";
export { MissingSdkError, sdkLoader } from "./sdk/load-sdk.js";
export type { StreamLimits } from "./stream/run-provider-stream.js";
