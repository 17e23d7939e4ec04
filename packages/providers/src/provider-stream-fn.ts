import type { StreamFn } from "@chorus/core";
import { type AnthropicProviderOptions, anthropicStreamFn } from "./anthropic/anthropic-stream-fn.js";
import { API } from "./models/api-names.js";
import { type OpenAICompatibleOptions, openAICompatibleStreamFn } from "./openai/openai-compatible-stream-fn.js";
import { type OpenAIProviderOptions, openAIStreamFn } from "./openai/openai-stream-fn.js";
import { runProviderStream } from "./stream/run-provider-stream.js";

/** Which providers a combined StreamFn can reach, each with its options. */
export interface ProviderStreamFnOptions {
  anthropic?: AnthropicProviderOptions;
  openai?: OpenAIProviderOptions;
  /** OpenAI-compatible servers by provider name (a Model's `provider`), e.g. `{ ollama: { baseUrl } }`. */
  compatible?: Record<string, OpenAICompatibleOptions>;
  /** Models with api "scripted" go here (e.g. scriptedProvider(...)). */
  scripted?: StreamFn;
}

/**
 * One StreamFn for every configured provider, routing each call by the model's provider and
 * api, so a fallback can move a conversation from one provider to another.
 * Contract: a model no configured provider serves ends with an `invalid_request` error event.
 */
export function providerStreamFn(options: ProviderStreamFnOptions): StreamFn {
  const anthropic = anthropicStreamFn(options.anthropic);
  const openai = openAIStreamFn(options.openai);
  const compatible = new Map(
    Object.entries(options.compatible ?? {}).map(([name, o]) => [name, openAICompatibleStreamFn(o)]),
  );
  return (model, context, streamOptions) => {
    const byName = compatible.get(model.provider);
    if (byName) return byName(model, context, streamOptions);
    if (model.api === API.scripted && options.scripted) return options.scripted(model, context, streamOptions);
    if (model.provider === "anthropic" && model.api === API.anthropic) return anthropic(model, context, streamOptions);
    if (model.provider === "openai") return openai(model, context, streamOptions);
    return runProviderStream(model, streamOptions, {}, "the provider configuration", async () => {
      throw Object.assign(
        new Error(`No provider configured for model "${model.id}" (provider "${model.provider}", api "${model.api}")`),
        { status: 400 },
      );
    });
  };
}
