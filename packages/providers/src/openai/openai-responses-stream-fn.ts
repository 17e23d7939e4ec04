import type { StreamFn } from "@chorus/core";
import type OpenAI from "openai";
import type { ThinkingHandoff } from "../handoff/prepare-messages.js";
import { runProviderStream, type StreamLimits } from "../stream/run-provider-stream.js";
import { SdkClientCache } from "../stream/sdk-client-cache.js";
import { type OpenAIConnection, openAIClient } from "./openai-client.js";
import { consumeResponsesEvents } from "./openai-responses-events.js";
import { buildResponsesRequest } from "./openai-responses-request.js";

/** Options of the Responses API provider. */
export interface OpenAIResponsesOptions extends OpenAIConnection, StreamLimits {
  /** Reasoning from another provider or model: dropped (default) or sent as text. */
  thinkingHandoff?: ThinkingHandoff;
}

const AUTH_HINT = "OPENAI_API_KEY (or the apiKey option)";

/**
 * A StreamFn for OpenAI's Responses API, stateless (`store: false`) with encrypted reasoning
 * replayed across turns.
 * Contract: SDK retries off; the caller's AbortSignal and the timeouts apply; never throws.
 */
export function openAIResponsesStreamFn(providerOptions: OpenAIResponsesOptions = {}): StreamFn {
  const clients = new SdkClientCache<OpenAI>();
  return (model, context, options) =>
    runProviderStream(model, options, providerOptions, AUTH_HINT, async (run) => {
      const client = await openAIClient(clients, model, options, providerOptions, {
        keyVar: "OPENAI_API_KEY",
        needsApiKey: true,
        authHint: AUTH_HINT,
      });
      const request = buildResponsesRequest(model, context, options, providerOptions.thinkingHandoff ?? "drop");
      const stream = await client.responses.create(request, { signal: run.signal });
      return consumeResponsesEvents(stream, model, run);
    });
}
