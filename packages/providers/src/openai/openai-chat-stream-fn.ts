import type { StreamFn } from "@chorus/core";
import type OpenAI from "openai";
import { runProviderStream, type StreamLimits } from "../stream/run-provider-stream.js";
import { SdkClientCache } from "../stream/sdk-client-cache.js";
import { type ChatCompat, resolveChatCompat } from "./chat-compat.js";
import { consumeChatChunks } from "./openai-chat-events.js";
import { buildChatRequest } from "./openai-chat-request.js";
import { type OpenAIConnection, openAIClient } from "./openai-client.js";

/** Options of the Chat Completions provider. */
export interface OpenAIChatOptions extends OpenAIConnection, StreamLimits {
  /** Differences of the server from OpenAI's own; default from the model's provider name. */
  compat?: Partial<ChatCompat>;
}

/**
 * A StreamFn for OpenAI's Chat Completions API (and any server that speaks it).
 * Contract: SDK retries off; the caller's AbortSignal and the timeouts apply; never throws.
 */
export function openAIChatStreamFn(providerOptions: OpenAIChatOptions = {}): StreamFn {
  const clients = new SdkClientCache<OpenAI>();
  return (model, context, options) => {
    const compat = resolveChatCompat(model.provider, providerOptions.compat);
    const keyVar =
      model.provider === "openai"
        ? "OPENAI_API_KEY"
        : `${model.provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`;
    const authHint = `${keyVar} (or the apiKey option)`;
    return runProviderStream(model, options, providerOptions, authHint, async (run) => {
      const client = await openAIClient(clients, model, options, providerOptions, {
        keyVar,
        needsApiKey: compat.needsApiKey,
        authHint,
      });
      const request = buildChatRequest(model, context, options, compat);
      const stream = await client.chat.completions.create(request, { signal: run.signal });
      return consumeChatChunks(stream, model, compat, run);
    });
  };
}
