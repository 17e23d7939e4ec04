import type { StreamFn } from "@chorus/core";
import { runProviderStream, type StreamLimits } from "../stream/run-provider-stream.js";
import { type ChatCompat, resolveChatCompat } from "./chat-compat.js";
import { OPENAI_API_ROOT, streamChatCompletion } from "./chat-completions-stream.js";
import { chatRequestJson } from "./chat-request-json.js";
import { consumeChatChunks } from "./openai-chat-events.js";
import { buildChatRequest } from "./openai-chat-request.js";
import { type OpenAIConnection, resolveOpenAIConnection } from "./openai-client.js";

/** Options of the Chat Completions provider. */
export interface OpenAIChatOptions extends OpenAIConnection, StreamLimits {
  /** Differences of the server from OpenAI's own; default from the model's provider name. */
  compat?: Partial<ChatCompat>;
}

/**
 * A StreamFn for OpenAI's Chat Completions API (and any server that speaks it).
 * It speaks the API over `fetch` (no SDK needed); keep-alive connections are fetch's own, shared by every call.
 * Contract: no retries of its own; the caller's AbortSignal and the timeouts apply; never throws.
 */
export function openAIChatStreamFn(providerOptions: OpenAIChatOptions = {}): StreamFn {
  return (model, context, options) => {
    const compat = resolveChatCompat(model.provider, providerOptions.compat);
    const keyVar =
      model.provider === "openai"
        ? "OPENAI_API_KEY"
        : `${model.provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`;
    const authHint = `${keyVar} (or the apiKey option)`;
    return runProviderStream(model, options, providerOptions, authHint, async (run) => {
      const connection = resolveOpenAIConnection(model, options, providerOptions, {
        keyVar,
        needsApiKey: compat.needsApiKey,
        authHint,
      });
      const endpoint = {
        baseUrl: connection.baseURL ?? process.env.OPENAI_BASE_URL ?? OPENAI_API_ROOT,
        apiKey: connection.apiKey,
        headers: { ...openAIAccountHeaders(), ...connection.headers },
      };
      const body = chatRequestJson(buildChatRequest(model, context, options, compat));
      return consumeChatChunks(streamChatCompletion(endpoint, body, run.signal), model, compat, run);
    });
  };
}

/**
 * The organization and project the openai SDK sends from `OPENAI_ORG_ID` and `OPENAI_PROJECT_ID` (usage and billing
 * go to them): sent the same way, so moving off the SDK changed no one's account. Configured headers win.
 */
function openAIAccountHeaders(): Record<string, string> {
  const organization = process.env.OPENAI_ORG_ID;
  const project = process.env.OPENAI_PROJECT_ID;
  return {
    ...(organization ? { "openai-organization": organization } : {}),
    ...(project ? { "openai-project": project } : {}),
  };
}
