import type { BotConfigInput } from "./bot-config-schema.js";
import { storeFromEnv } from "./store-from-env.js";

/** Which model the bot picked without a config file, and why. */
export interface ModelChoice {
  /** The agent's `model` reference. */
  readonly model: string;
  readonly providers: BotConfigInput["providers"];
  /** The startup line: which model, because of which variable, and how to change it. */
  readonly explanation: string;
}

/**
 * The best model the environment allows: Anthropic if ANTHROPIC_API_KEY, else OpenAI if OPENAI_API_KEY, else an
 * OpenAI-compatible server if OPENAI_BASE_URL, else the offline demo. CHORUS_MODEL picks the model id.
 * Contract: pure; never reads anything but `env`.
 */
export function chooseModelFromEnv(env: NodeJS.ProcessEnv): ModelChoice {
  const pick = env.CHORUS_MODEL?.trim() || undefined;
  const change = "set CHORUS_MODEL to pick another model, or write chorus.config.yaml (see chorus.config.example.yaml)";
  if (env.ANTHROPIC_API_KEY) {
    const id = pick ?? "claude-sonnet-4-6";
    return {
      model: id.includes("/") ? id : `anthropic/${id}`,
      providers: { anthropic: baseUrlOf(env.ANTHROPIC_BASE_URL) },
      explanation: `model: Anthropic ${id} (ANTHROPIC_API_KEY is set); ${change}`,
    };
  }
  if (env.OPENAI_API_KEY) {
    const id = pick ?? "gpt-5";
    return {
      model: id.includes("/") ? id : `openai/${id}`,
      providers: { openai: baseUrlOf(env.OPENAI_BASE_URL) },
      explanation: `model: OpenAI ${id} (OPENAI_API_KEY is set); ${change}`,
    };
  }
  if (env.OPENAI_BASE_URL) {
    const id = pick ?? "llama3.2";
    return {
      model: `local/${id}`,
      providers: { compatible: { local: { baseUrl: env.OPENAI_BASE_URL } } },
      explanation: `model: ${id} on the OpenAI-compatible server at ${env.OPENAI_BASE_URL} (OPENAI_BASE_URL is set); ${change}`,
    };
  }
  return {
    model: "demo",
    providers: {},
    explanation:
      "model: the offline demo (no ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL set); " +
      "set one of them and restart to use a real model, or write chorus.config.yaml (see chorus.config.example.yaml)",
  };
}

/**
 * The configuration used when there is no config file: WebChat, one default agent on the best available model,
 * and every platform whose tokens are in the environment.
 * Contract: pure; the result passes `parseBotConfig`.
 */
export function defaultConfigFromEnv(env: NodeJS.ProcessEnv): { input: BotConfigInput; choice: ModelChoice } {
  const choice = chooseModelFromEnv(env);
  const channels: NonNullable<BotConfigInput["channels"]> = { webchat: [{ accountId: "local" }] };
  if (env.DISCORD_BOT_TOKEN) channels.discord = [{ accountId: "main", token: env.DISCORD_BOT_TOKEN }];
  if (env.SLACK_BOT_TOKEN && (env.SLACK_APP_TOKEN || env.SLACK_SIGNING_SECRET)) {
    channels.slack = [
      {
        accountId: "main",
        botToken: env.SLACK_BOT_TOKEN,
        ...(env.SLACK_APP_TOKEN ? { appToken: env.SLACK_APP_TOKEN } : { signingSecret: env.SLACK_SIGNING_SECRET }),
      },
    ];
  }
  if (env.TELEGRAM_BOT_TOKEN) channels.telegram = [{ accountId: "main", token: env.TELEGRAM_BOT_TOKEN }];
  const store = storeFromEnv(env);
  const input: BotConfigInput = {
    ...(env.CHORUS_DATA_DIR ? { dataDir: env.CHORUS_DATA_DIR } : {}),
    ...(store === undefined ? {} : { store }),
    providers: choice.providers,
    agents: [
      {
        id: "assistant",
        model: choice.model,
        systemPrompt: "You are Chorus, a helpful assistant. Be concise.",
        subagents: { maxSpawnDepth: 1 },
      },
    ],
    channels,
  };
  if (env.CHORUS_WEBCHAT_PORT) channels.webchat = [{ accountId: "local", port: Number(env.CHORUS_WEBCHAT_PORT) }];
  return { input, choice };
}

function baseUrlOf(url: string | undefined): { baseUrl?: string } {
  return url ? { baseUrl: url } : {};
}
