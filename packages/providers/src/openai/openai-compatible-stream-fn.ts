import type { StreamFn } from "@chorus/core";
import type { StreamLimits } from "../stream/run-provider-stream.js";
import { type ChatCompat, type KnownChatServer, resolveChatCompat } from "./chat-compat.js";
import { openAIChatStreamFn } from "./openai-chat-stream-fn.js";

/** Options of the OpenAI-compatible provider. */
export interface OpenAICompatibleOptions extends StreamLimits {
  /** The server's base URL including `/v1`, e.g. "http://127.0.0.1:11434/v1" for Ollama. */
  baseUrl: string;
  /** A known server whose quirks apply; default: the model's provider name, else generic settings. */
  server?: KnownChatServer;
  /** Per-field overrides of the server's quirks. */
  compat?: Partial<ChatCompat>;
  /** The key, when the server needs one (OpenRouter). Default: `<PROVIDER>_API_KEY`. */
  apiKey?: string;
  headers?: Record<string, string>;
}

/**
 * A StreamFn for any server that speaks OpenAI Chat Completions (Ollama, vLLM, LM Studio,
 * OpenRouter…), adapting to its differences from the compat table.
 * Contract: as openAIChatStreamFn; `baseUrl` is required.
 */
export function openAICompatibleStreamFn(options: OpenAICompatibleOptions): StreamFn {
  return (model, context, streamOptions) => {
    const compat = resolveChatCompat(options.server ?? model.provider, options.compat);
    const chat = openAIChatStreamFn({
      baseUrl: options.baseUrl,
      compat,
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    });
    return chat(model, context, streamOptions);
  };
}
