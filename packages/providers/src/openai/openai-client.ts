import type { Model, StreamOptions } from "@chorus/core";
import OpenAI from "openai";

/** Connection settings shared by the OpenAI providers. */
export interface OpenAIConnection {
  apiKey?: string;
  baseUrl?: string;
  headers?: Record<string, string>;
}

/**
 * An SDK client for one call. Contract: SDK retries are off; a missing key throws a 401-shaped
 * error naming `authHint`, which the classifier turns into an `auth` failure.
 */
export function openAIClient(
  model: Model,
  options: StreamOptions | undefined,
  connection: OpenAIConnection,
  env: { keyVar: string; needsApiKey: boolean; authHint: string },
): OpenAI {
  const apiKey = options?.apiKey ?? connection.apiKey ?? process.env[env.keyVar];
  if (!apiKey && env.needsApiKey) {
    throw Object.assign(new Error(`No API key. Set ${env.authHint}.`), { status: 401 });
  }
  const baseURL = connection.baseUrl ?? model.baseUrl;
  return new OpenAI({
    // Local servers ignore the key, but the SDK insists on one.
    apiKey: apiKey ?? "not-needed",
    ...(baseURL ? { baseURL } : {}),
    maxRetries: 0,
    defaultHeaders: { ...connection.headers, ...options?.headers },
  });
}
