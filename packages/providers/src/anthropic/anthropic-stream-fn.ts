import type Anthropic from "@anthropic-ai/sdk";
import type { StreamFn } from "@chorus/core";
import type { ThinkingHandoff } from "../handoff/prepare-messages.js";
import { sdkLoader } from "../sdk/load-sdk.js";
import { runProviderStream, type StreamLimits } from "../stream/run-provider-stream.js";
import { SdkClientCache } from "../stream/sdk-client-cache.js";
import { consumeAnthropicEvents } from "./anthropic-events.js";
import { type AnthropicCacheOptions, buildAnthropicRequest } from "./anthropic-request.js";

/** Options of the Anthropic provider. Every field is optional. */
export interface AnthropicProviderOptions extends StreamLimits {
  /** API key. Default: StreamOptions.apiKey, then ANTHROPIC_API_KEY. */
  apiKey?: string;
  /** OAuth access token, used when there is no API key. Default: ANTHROPIC_AUTH_TOKEN. */
  authToken?: string;
  /** Base URL without `/v1`. Default: the model's baseUrl, then the SDK's default. */
  baseUrl?: string;
  /** Prompt-cache breakpoints (system, tools, last user message); `false` turns caching off. */
  cache?: AnthropicCacheOptions | false;
  /** Reasoning from another provider or model: dropped (default) or sent as text. */
  thinkingHandoff?: ThinkingHandoff;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

const AUTH_HINT = "ANTHROPIC_API_KEY (or the apiKey option; ANTHROPIC_AUTH_TOKEN / authToken for OAuth)";

/**
 * A StreamFn for Anthropic's Messages API through @anthropic-ai/sdk.
 * Contract: the SDK's own retries are off (maxRetries 0); every request carries the caller's
 * AbortSignal and the timeouts; the StreamFn never throws (see StreamFn). The SDK's own OpenTelemetry spans are off
 * (whatever its ANTHROPIC_OPEN_TELEMETRY* variables say): the agent loop's `chat` span is the one GenAI span of a model
 * call, so a backend summing `gen_ai.usage.*` counts each token once, and content follows Chorus's capture setting.
 */
/** @anthropic-ai/sdk, loaded at the first call (an optional peer dependency). */
const loadAnthropic = sdkLoader("@anthropic-ai/sdk", "Anthropic", () =>
  import("@anthropic-ai/sdk").then((sdk) => sdk.default),
);

export function anthropicStreamFn(providerOptions: AnthropicProviderOptions = {}): StreamFn {
  const clients = new SdkClientCache<Anthropic>();
  return (model, context, options) =>
    runProviderStream(model, options, providerOptions, AUTH_HINT, async (run) => {
      const apiKey = options?.apiKey ?? providerOptions.apiKey ?? process.env.ANTHROPIC_API_KEY;
      const authToken = apiKey ? undefined : (providerOptions.authToken ?? process.env.ANTHROPIC_AUTH_TOKEN);
      if (!apiKey && !authToken) {
        throw Object.assign(new Error(`No Anthropic credentials. Set ${AUTH_HINT}.`), { status: 401 });
      }
      const baseURL = providerOptions.baseUrl ?? model.baseUrl;
      const defaultHeaders = {
        ...(authToken ? { "anthropic-beta": "oauth-2025-04-20" } : {}),
        ...providerOptions.headers,
        ...options?.headers,
      };
      const AnthropicClient = await loadAnthropic();
      const client = clients.get(
        [apiKey, authToken, baseURL, defaultHeaders],
        () =>
          new AnthropicClient({
            apiKey: apiKey ?? null,
            authToken: authToken ?? null,
            ...(baseURL ? { baseURL } : {}),
            maxRetries: 0,
            defaultHeaders,
            openTelemetry: false,
          }),
      );
      const request = buildAnthropicRequest(
        model,
        context,
        options,
        providerOptions.cache ?? {},
        providerOptions.thinkingHandoff ?? "drop",
      );
      const stream = await client.messages.create(request, { signal: run.signal });
      return consumeAnthropicEvents(stream, model, run);
    });
}
