import type { StreamFn } from "@chorus/core";
import { API } from "../models/api-names.js";
import { type OpenAIChatOptions, openAIChatStreamFn } from "./openai-chat-stream-fn.js";
import { type OpenAIResponsesOptions, openAIResponsesStreamFn } from "./openai-responses-stream-fn.js";

/** Options of the OpenAI provider: both APIs' options together. */
export type OpenAIProviderOptions = OpenAIChatOptions & OpenAIResponsesOptions;

/**
 * A StreamFn for OpenAI that picks the API per model: Responses for `api: "openai-responses"`,
 * Chat Completions otherwise. Contract: as openAIChatStreamFn / openAIResponsesStreamFn.
 */
export function openAIStreamFn(options: OpenAIProviderOptions = {}): StreamFn {
  const chat = openAIChatStreamFn(options);
  const responses = openAIResponsesStreamFn(options);
  return (model, context, streamOptions) =>
    model.api === API.openaiResponses ? responses(model, context, streamOptions) : chat(model, context, streamOptions);
}
