import type { StreamFn } from "@chorus/core";
import { type ProviderStreamFnOptions, providerStreamFn } from "@chorus/providers";
import type { BotConfig } from "../config/bot-config-schema.js";
import { demoStreamFn } from "../demo/demo-model.js";

/**
 * One StreamFn for every provider the configuration names, plus the offline demo model.
 * Contract: keys left out of the config fall back to the providers' environment variables.
 */
export function buildBotStreamFn(
  config: Pick<BotConfig, "providers">,
  options: { tokenDelayMs?: number } = {},
): StreamFn {
  const providers: ProviderStreamFnOptions = { scripted: demoStreamFn(options) };
  const { anthropic, openai, compatible } = config.providers;
  if (anthropic) {
    providers.anthropic = definedOnly({ apiKey: anthropic.apiKey, baseUrl: anthropic.baseUrl });
    if (anthropic.cacheTtl !== undefined) providers.anthropic.cache = { ttl: anthropic.cacheTtl };
  }
  if (openai) providers.openai = definedOnly({ apiKey: openai.apiKey, baseUrl: openai.baseUrl });
  if (compatible) {
    providers.compatible = Object.fromEntries(
      Object.entries(compatible).map(([name, server]) => [
        name,
        { baseUrl: server.baseUrl, ...(server.apiKey === undefined ? {} : { apiKey: server.apiKey }) },
      ]),
    );
  }
  return providerStreamFn(providers);
}

function definedOnly<T extends Record<string, string | undefined>>(value: T): { [K in keyof T]?: string } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as {
    [K in keyof T]?: string;
  };
}
