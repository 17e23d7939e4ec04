/** The `concurrency` strategies the bench can give a Chat SDK bot. */
export const chatSdkConcurrencies = ["concurrent", "queue", "drop"] as const;
export type ChatSdkConcurrency = (typeof chatSdkConcurrencies)[number];

/**
 * The DM handlers a Chat SDK bot can run: `echo` answers `echo: <text>`; `ai` asks the model through the AI SDK
 * (`streamText`); `fetch` asks it with one plain streamed `fetch` of a chat completion, reading the SSE itself.
 */
export const chatSdkHandlers = ["echo", "ai", "fetch"] as const;
export type ChatSdkHandler = (typeof chatSdkHandlers)[number];

/** What one Chat SDK bot child process runs, read from its environment (set by the harness). */
export interface ChatSdkBotConfig {
  readonly platform: "telegram" | "slack";
  /** What the DM handler does (see `chatSdkHandlers`). */
  readonly handler: ChatSdkHandler;
  readonly state: "memory" | "redis";
  /** Chat SDK's `concurrency` strategy (see bench/README.md for why the bench defaults to `concurrent`). */
  readonly concurrency: ChatSdkConcurrency;
  readonly redisUrl: string;
  readonly redisKeyPrefix: string;
  /** Telegram Bot API root or Slack Web API URL of the fake. */
  readonly apiUrl: string;
  /** Telegram bot token or Slack bot token. */
  readonly token: string;
  /** Telegram webhook secret token or Slack signing secret. */
  readonly secret: string;
  /** OpenAI-compatible base URL (…/v1) of the fake model, for the `ai` and `fetch` handlers. */
  readonly modelUrl: string;
}

/** The environment variables that carry a `ChatSdkBotConfig`. */
export function chatSdkBotEnv(config: ChatSdkBotConfig): Record<string, string> {
  return {
    SBS_PLATFORM: config.platform,
    SBS_HANDLER: config.handler,
    SBS_STATE: config.state,
    SBS_CONCURRENCY: config.concurrency,
    SBS_REDIS_URL: config.redisUrl,
    SBS_REDIS_PREFIX: config.redisKeyPrefix,
    SBS_API_URL: config.apiUrl,
    SBS_TOKEN: config.token,
    SBS_SECRET: config.secret,
    SBS_MODEL_URL: config.modelUrl,
  };
}

/**
 * Reads the config back in the child. Contract: throws naming the first missing or invalid variable.
 */
export function readChatSdkBotConfig(env: NodeJS.ProcessEnv): ChatSdkBotConfig {
  const need = (name: string): string => {
    const value = env[name];
    if (value === undefined) throw new Error(`chat-sdk-bot: ${name} is not set`);
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[]): T => {
    const value = need(name);
    if (!(allowed as readonly string[]).includes(value)) {
      throw new Error(`chat-sdk-bot: ${name} must be one of ${allowed.join(", ")}, got ${value}`);
    }
    return value as T;
  };
  return {
    platform: oneOf("SBS_PLATFORM", ["telegram", "slack"] as const),
    handler: oneOf("SBS_HANDLER", chatSdkHandlers),
    state: oneOf("SBS_STATE", ["memory", "redis"] as const),
    concurrency: oneOf("SBS_CONCURRENCY", chatSdkConcurrencies),
    redisUrl: env.SBS_REDIS_URL ?? "redis://127.0.0.1:6379",
    redisKeyPrefix: env.SBS_REDIS_PREFIX ?? "chat-sdk-bench",
    apiUrl: need("SBS_API_URL"),
    token: need("SBS_TOKEN"),
    secret: need("SBS_SECRET"),
    modelUrl: env.SBS_MODEL_URL ?? "",
  };
}
