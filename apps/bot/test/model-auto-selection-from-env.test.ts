import { describe, expect, it } from "vitest";
import { defaultConfigFromEnv } from "../src/config/default-config.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { buildModelRegistry, resolveModelRef } from "../src/models/model-reference.js";

function resolvedDefault(env: NodeJS.ProcessEnv) {
  const { input, choice } = defaultConfigFromEnv(env);
  const parsed = parseBotConfig(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const config = parsed.config;
  const model = resolveModelRef(config.agents[0]?.model ?? "", buildModelRegistry(config), config);
  return { config, model, choice };
}

describe("without a config file", () => {
  it("picks Anthropic first, then OpenAI, then an OpenAI-compatible server, then the offline demo", () => {
    const all = { ANTHROPIC_API_KEY: "sk-ant-x", OPENAI_API_KEY: "sk-x", OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" };
    expect(resolvedDefault(all).model).toMatchObject({ provider: "anthropic", id: "claude-sonnet-4-6" });
    const { ANTHROPIC_API_KEY: _a, ...noAnthropic } = all;
    expect(resolvedDefault(noAnthropic).model).toMatchObject({ provider: "openai", id: "gpt-5" });
    const compatible = resolvedDefault({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" });
    expect(compatible.model).toMatchObject({ provider: "local", id: "llama3.2", baseUrl: "http://127.0.0.1:11434/v1" });
    expect(resolvedDefault({}).model).toMatchObject({ provider: "scripted", id: "chorus-demo" });
  });

  it("says which model it chose and how to change it", () => {
    expect(resolvedDefault({}).choice.explanation).toMatch(
      /offline demo.*ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL/,
    );
    expect(resolvedDefault({ OPENAI_API_KEY: "sk-x" }).choice.explanation).toMatch(
      /OpenAI gpt-5 \(OPENAI_API_KEY is set\); set CHORUS_MODEL/,
    );
    expect(resolvedDefault({ OPENAI_API_KEY: "sk-x", CHORUS_MODEL: "gpt-4.1" }).model).toMatchObject({ id: "gpt-4.1" });
  });

  it("serves WebChat, and starts the platforms whose tokens are in the environment", () => {
    expect(resolvedDefault({}).config.channels).toMatchObject({
      webchat: [{ accountId: "local", port: 8787, host: "127.0.0.1" }],
      discord: [],
      slack: [],
      telegram: [],
    });
    const { config } = resolvedDefault({
      DISCORD_BOT_TOKEN: "d-token",
      SLACK_BOT_TOKEN: "xoxb-1",
      SLACK_APP_TOKEN: "xapp-1",
      TELEGRAM_BOT_TOKEN: "1:t",
    });
    expect(config.channels.discord).toMatchObject([{ token: "d-token" }]);
    expect(config.channels.slack).toMatchObject([{ botToken: "xoxb-1", appToken: "xapp-1" }]);
    expect(config.channels.telegram).toMatchObject([{ token: "1:t" }]);
    // Slack needs the app token or the signing secret too.
    expect(resolvedDefault({ SLACK_BOT_TOKEN: "xoxb-1" }).config.channels.slack).toEqual([]);
    expect(
      resolvedDefault({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: "s" }).config.channels.slack,
    ).toMatchObject([{ signingSecret: "s" }]);
  });
});
