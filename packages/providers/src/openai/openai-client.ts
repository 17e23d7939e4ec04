import type { Model, StreamOptions } from "@chorus/core";
import type OpenAI from "openai";
import { sdkLoader } from "../sdk/load-sdk.js";
import type { SdkClientCache } from "../stream/sdk-client-cache.js";

/** Connection settings shared by the OpenAI providers. */
export interface OpenAIConnection {
  apiKey?: string;
  baseUrl?: string;
  headers?: Record<string, string>;
}

/** openai, loaded at the first call (an optional peer dependency). */
const loadOpenAI = sdkLoader("openai", "OpenAI", () => import("openai").then((sdk) => sdk.default));

/** What one call connects with: its key (undefined for local servers), API root and headers. */
export interface ResolvedOpenAIConnection {
  readonly apiKey: string | undefined;
  readonly baseURL: string | undefined;
  readonly headers: Record<string, string>;
}

/**
 * The key, base URL and headers of one call: the call's own first, then the provider's, then the environment.
 * Contract: a missing key where one is needed throws a 401-shaped error naming `authHint`, which the classifier turns
 * into an `auth` failure.
 */
export function resolveOpenAIConnection(
  model: Model,
  options: StreamOptions | undefined,
  connection: OpenAIConnection,
  env: { keyVar: string; needsApiKey: boolean; authHint: string },
): ResolvedOpenAIConnection {
  const apiKey = options?.apiKey ?? connection.apiKey ?? process.env[env.keyVar];
  if (!apiKey && env.needsApiKey) {
    throw Object.assign(new Error(`No API key. Set ${env.authHint}.`), { status: 401 });
  }
  return {
    apiKey: apiKey || undefined,
    baseURL: connection.baseUrl ?? model.baseUrl,
    headers: { ...connection.headers, ...options?.headers },
  };
}

/**
 * The SDK client for one call, taken from `clients` when a call with the same key, base URL and headers made one.
 * Contract: SDK retries are off; a missing key throws as `resolveOpenAIConnection` says.
 */
export async function openAIClient(
  clients: SdkClientCache<OpenAI>,
  model: Model,
  options: StreamOptions | undefined,
  connection: OpenAIConnection,
  env: { keyVar: string; needsApiKey: boolean; authHint: string },
): Promise<OpenAI> {
  const { apiKey, baseURL, headers: defaultHeaders } = resolveOpenAIConnection(model, options, connection, env);
  const OpenAIClient = await loadOpenAI();
  return clients.get(
    [apiKey, baseURL, defaultHeaders],
    () =>
      new OpenAIClient({
        // Local servers ignore the key, but the SDK insists on one.
        apiKey: apiKey ?? "not-needed",
        ...(baseURL ? { baseURL } : {}),
        maxRetries: 0,
        defaultHeaders,
      }),
  );
}
