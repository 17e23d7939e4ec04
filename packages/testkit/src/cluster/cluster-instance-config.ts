import { join } from "node:path";

/** What one `chorus start` of a cluster test or bench needs to know; every instance of a run shares all but `name` and ports. */
export interface ClusterInstanceConfigOptions {
  /** `instanceId`; the data dir is `<dir>/<name>`. */
  readonly name: string;
  readonly dir: string;
  /** Base URL of an OpenAI-compatible fake (the one agent's model is `openai/gpt-4.1`). */
  readonly modelUrl: string;
  readonly databaseUrl: string;
  /** `store.leaseMs`: how soon a dead instance's sessions move; undefined: left out (the store's default). */
  readonly leaseMs?: number | undefined;
  /** Telegram in webhook mode, its server on `port`; `publicUrl` is the balancer's base URL (`/telegram` is added). */
  readonly telegram?: {
    readonly token: string;
    readonly apiRoot: string;
    readonly port: number;
    readonly publicUrl: string;
    readonly secretToken: string;
  };
  /** Slack in HTTP mode (Events API at `/slack/events` on `port`). */
  readonly slack?: {
    readonly botToken: string;
    readonly signingSecret: string;
    readonly apiUrl: string;
    readonly port: number;
  };
  /**
   * Discord with `shards` shards leased across the instances (guild channels need a mention; DMs open), each
   * IDENTIFY `identifyIntervalMs` after the last (Discord's limit is 5 s; a fake allows less).
   */
  readonly discord?: {
    readonly token: string;
    readonly restApi: string;
    readonly shards: number;
    readonly identifyIntervalMs: number;
  };
  /** `shutdownGraceMs` (default the bot's). */
  readonly shutdownGraceMs?: number;
  /** The channels' `queueMode` (default the bot's, `steer`); `followup` answers each message in its own turn. */
  readonly queueMode?: "steer" | "followup" | "collect" | "interrupt";
}

/**
 * The chorus.config.yaml text of one cluster instance: PostgreSQL in cluster mode, open DMs (and open Discord guild
 * channels), JSON logs.
 * Contract: pure; every value is written as a JSON string (valid YAML), so tokens and URLs need no escaping.
 * @example
 * await writeFile(join(dir, "a.yaml"), clusterInstanceConfig({ name: "a", dir, modelUrl: model.url, databaseUrl, leaseMs: 1500, telegram }));
 */
export function clusterInstanceConfig(options: ClusterInstanceConfigOptions): string {
  const queueMode = options.queueMode === undefined ? [] : [`      queueMode: ${options.queueMode}`];
  const telegram = options.telegram
    ? [
        "  telegram:",
        "    - accountId: main",
        `      token: ${JSON.stringify(options.telegram.token)}`,
        `      apiRoot: ${JSON.stringify(options.telegram.apiRoot)}`,
        "      mode: webhook",
        "      dmPolicy: open",
        "      webhook:",
        `        secretToken: ${JSON.stringify(options.telegram.secretToken)}`,
        `        port: ${options.telegram.port}`,
        `        publicUrl: ${JSON.stringify(`${options.telegram.publicUrl}/telegram`)}`,
        ...queueMode,
      ]
    : [];
  const slack = options.slack
    ? [
        "  slack:",
        "    - accountId: main",
        `      botToken: ${JSON.stringify(options.slack.botToken)}`,
        `      signingSecret: ${JSON.stringify(options.slack.signingSecret)}`,
        `      slackApiUrl: ${JSON.stringify(options.slack.apiUrl)}`,
        `      port: ${options.slack.port}`,
        "      dmPolicy: open",
        ...queueMode,
      ]
    : [];
  const discord = options.discord
    ? [
        "  discord:",
        "    - accountId: main",
        `      token: ${JSON.stringify(options.discord.token)}`,
        `      restApi: ${JSON.stringify(options.discord.restApi)}`,
        `      shards: ${options.discord.shards}`,
        `      identifyIntervalMs: ${options.discord.identifyIntervalMs}`,
        "      dmPolicy: open",
        "      groupPolicy: open",
        ...queueMode,
      ]
    : [];
  return [
    `instanceId: ${JSON.stringify(options.name)}`,
    `dataDir: ${JSON.stringify(join(options.dir, options.name))}`,
    "providers:",
    "  openai:",
    "    apiKey: sk-cluster-test-0000000000",
    `    baseUrl: ${JSON.stringify(options.modelUrl)}`,
    "agents:",
    "  - id: assistant",
    "    model: openai/gpt-4.1",
    "channels:",
    ...telegram,
    ...slack,
    ...discord,
    "store:",
    "  kind: postgres",
    `  url: ${JSON.stringify(options.databaseUrl)}`,
    "  cluster: true",
    ...(options.leaseMs === undefined ? [] : [`  leaseMs: ${options.leaseMs}`]),
    ...(options.shutdownGraceMs === undefined ? [] : [`shutdownGraceMs: ${options.shutdownGraceMs}`]),
    "logging:",
    "  format: json",
    "",
  ].join("\n");
}
