import type { BotConfig } from "./bot-config-schema.js";

/**
 * Every secret value in a configuration (provider keys, transcription keys, channel tokens, WebChat access and metrics
 * tokens, the database password), so the logger can scrub them from any line.
 * Contract: pure; only non-empty strings.
 */
export function secretsOf(config: BotConfig): string[] {
  const values: (string | undefined)[] = [
    config.providers.anthropic?.apiKey,
    config.providers.openai?.apiKey,
    config.memory?.embeddings?.apiKey,
    config.media.transcription?.apiKey,
    ...Object.values(config.media.agents).map((agent) => (agent.transcription || undefined)?.apiKey),
    ...Object.values(config.providers.compatible ?? {}).map((server) => server.apiKey),
    ...config.channels.discord.map((account) => account.token),
    ...config.channels.slack.flatMap((account) => [account.botToken, account.appToken, account.signingSecret]),
    ...config.channels.telegram.flatMap((account) => [account.token, account.webhook?.secretToken]),
    ...config.channels.webchat.flatMap((account) => [account.accessToken, account.metricsToken]),
    ...(config.store.kind === "postgres" ? passwordForms(config.store.url) : []),
  ];
  return values.filter((value): value is string => typeof value === "string" && value.length > 0);
}

/** The password of a database URL as written and decoded (either may reach a log line). */
function passwordForms(url: string): string[] {
  try {
    const password = new URL(url).password;
    return password === "" ? [] : [password, decodeURIComponent(password)];
  } catch {
    return [];
  }
}
