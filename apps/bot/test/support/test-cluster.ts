import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase, type ScratchDatabase } from "@chorus/store-postgres/testing";
import {
  type ClusterInstanceConfigOptions,
  clusterInstanceConfig,
  type FakeDiscord,
  type FakeLlmServer,
  type FakeSlack,
  type FakeTelegram,
  freePort,
  type RecordedLlmRequest,
  type RoundRobinBalancer,
  startFakeDiscord,
  startFakeOpenAI,
  startFakeSlack,
  startFakeTelegram,
  startRoundRobinBalancer,
} from "@chorus/testkit";
import { BotProcess } from "./bot-process.js";
import { buildBot } from "./build-bot.js";
import { lastUserText as lastUserTextOf } from "./cluster-instances.js";

const TELEGRAM_SECRET = "cluster-test-secret";
/** The fake Discord recommends two shards, one guild on each. */
const DISCORD_SHARDS = 2;

/** One `chorus start` of a test cluster and the ports its webhook servers listen on (kept across restarts). */
export interface ClusterMember {
  readonly name: string;
  readonly telegramPort: number;
  readonly slackPort: number;
  bot: BotProcess;
}

/** How a test cluster is set up. */
export interface TestClusterOptions {
  readonly leaseMs: number;
  readonly telegram?: boolean;
  readonly slack?: boolean;
  /** A fake Discord with two guilds, one on each of two shards the instances lease; guild 0 gets this many extra text channels. */
  readonly discord?: { readonly extraTextChannels: number };
  readonly shutdownGraceMs?: number;
  /** The channels' `queueMode` (default `steer`). */
  readonly queueMode?: ClusterInstanceConfigOptions["queueMode"];
}

/** The last user message's text in a Chat Completions request (what the echo model answers). */
export function lastUserText(request: RecordedLlmRequest): string {
  return lastUserTextOf(request.body);
}

/**
 * Real `chorus start` processes in cluster mode on one scratch PostgreSQL database, with a fake Telegram (webhook
 * through a round-robin balancer) and/or a fake Slack (HTTP Events through another balancer) and/or a fake Discord
 * (two guilds on two shards, each shard's gateway socket held by one instance at a time), and a fake model that
 * answers every message with `echo: <its text>` — so every answer names the message it answers.
 * Contract: `close` kills every process, closes the fakes and balancers, drops the database and removes the dir.
 */
export class TestCluster {
  readonly members = new Map<string, ClusterMember>();
  /** Every process started, restarts included, in order. */
  readonly #processes: { name: string; bot: BotProcess }[] = [];

  private constructor(
    readonly options: TestClusterOptions,
    readonly dir: string,
    readonly database: ScratchDatabase,
    readonly model: FakeLlmServer,
    readonly telegram: FakeTelegram | undefined,
    readonly slack: FakeSlack | undefined,
    readonly discord: FakeDiscord | undefined,
    readonly telegramBalancer: RoundRobinBalancer,
    readonly slackBalancer: RoundRobinBalancer,
    /** The balancers' upstream lists (changed in place as members are spawned). */
    readonly telegramPorts: number[],
    readonly slackPorts: number[],
  ) {}

  /** Builds the bot (cached), makes the database, the fakes and the balancers; no instance yet. */
  static async create(options: TestClusterOptions): Promise<TestCluster> {
    await buildBot();
    const dir = await mkdtemp(join(tmpdir(), "chorus-test-cluster-"));
    const database = await createScratchDatabase();
    const model = await startFakeOpenAI({
      answerEvery: (request) => [{ type: "text", text: `echo: ${lastUserText(request)}`, chunks: 1 }],
    });
    // As Telegram does, an update the webhook did not acknowledge (an instance stopping mid-request, grammy's 10 s
    // handler timeout on a loaded machine) is posted again with the same update_id; the gateway stores it once.
    const telegram = options.telegram
      ? await startFakeTelegram({ callLogLimit: 20_000, webhookRetry: { attempts: 3, delayMs: 500 } })
      : undefined;
    const slack = options.slack ? await startFakeSlack({ mode: "http", callLogLimit: 20_000 }) : undefined;
    const discord = options.discord
      ? await startFakeDiscord({
          guilds: 2,
          shards: DISCORD_SHARDS,
          extraTextChannels: options.discord.extraTextChannels,
          heartbeatIntervalMs: 1000,
          callLogLimit: 20_000,
        })
      : undefined;
    const telegramPorts: number[] = [];
    const slackPorts: number[] = [];
    const cluster = new TestCluster(
      options,
      dir,
      database,
      model,
      telegram,
      slack,
      discord,
      await startRoundRobinBalancer(telegramPorts),
      await startRoundRobinBalancer(slackPorts),
      telegramPorts,
      slackPorts,
    );
    slack?.setEventsUrl(`${cluster.slackBalancer.url}/slack/events`);
    return cluster;
  }

  /** The config of member `name`; `databaseUrl` defaults to the scratch database (a gate's URL for a partition). */
  config(name: string, ports: { telegram: number; slack: number }, databaseUrl = this.database.url): string {
    const { telegram, slack, discord, options } = this;
    return clusterInstanceConfig({
      name,
      dir: this.dir,
      modelUrl: this.model.url,
      databaseUrl,
      leaseMs: options.leaseMs,
      ...(options.shutdownGraceMs === undefined ? {} : { shutdownGraceMs: options.shutdownGraceMs }),
      ...(options.queueMode === undefined ? {} : { queueMode: options.queueMode }),
      ...(telegram
        ? {
            telegram: {
              token: telegram.token,
              apiRoot: telegram.apiRoot,
              port: ports.telegram,
              publicUrl: this.telegramBalancer.url,
              secretToken: TELEGRAM_SECRET,
            },
          }
        : {}),
      ...(slack
        ? {
            slack: {
              botToken: slack.botToken,
              signingSecret: slack.signingSecret,
              apiUrl: slack.apiUrl,
              port: ports.slack,
            },
          }
        : {}),
      ...(discord
        ? {
            discord: {
              token: discord.token,
              restApi: discord.restApi,
              shards: DISCORD_SHARDS,
              identifyIntervalMs: 100,
            },
          }
        : {}),
    });
  }

  /** Spawns member `name` (its old ports when it ran before) without waiting for it. */
  async spawn(name: string, databaseUrl?: string): Promise<ClusterMember> {
    const known = this.members.get(name);
    const ports = {
      telegram: known?.telegramPort ?? (await freePort()),
      slack: known?.slackPort ?? (await freePort()),
    };
    const configFile = join(this.dir, `${name}.yaml`);
    await writeFile(configFile, this.config(name, ports, databaseUrl));
    const bot = new BotProcess(["start", "--config", configFile], {
      cwd: this.dir,
      env: { PATH: process.env.PATH, HOME: this.dir },
    });
    const member: ClusterMember = known ?? { name, telegramPort: ports.telegram, slackPort: ports.slack, bot };
    member.bot = bot;
    this.#processes.push({ name, bot });
    this.members.set(name, member);
    // Behind the balancers once spawned: a port nobody listens on yet is skipped (connection refused).
    if (this.telegram && !this.telegramPorts.includes(ports.telegram)) this.telegramPorts.push(ports.telegram);
    if (this.slack && !this.slackPorts.includes(ports.slack)) this.slackPorts.push(ports.slack);
    return member;
  }

  /** Spawns member `name` and waits for "chorus started". */
  async start(name: string, databaseUrl?: string): Promise<ClusterMember> {
    const member = await this.spawn(name, databaseUrl);
    await member.bot.waitForLine(/"msg":"chorus started"/);
    return member;
  }

  /** kill -9 of member `name`; resolves once it is gone. */
  async kill(name: string): Promise<void> {
    const member = this.#member(name);
    member.bot.child.kill("SIGKILL");
    await member.bot.exited;
  }

  /** SIGTERM to member `name`; resolves with how it exited. */
  async stop(name: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const member = this.#member(name);
    member.bot.child.kill("SIGTERM");
    return member.bot.exited;
  }

  /** Every output line of every process this cluster ran, joined (for messages on failure and log assertions). */
  output(): string {
    return this.#processes
      .map(({ name, bot }) => `--- ${name} (pid ${bot.child.pid})\n${bot.lines.join("\n")}`)
      .join("\n");
  }

  /** Kills what still runs and removes everything; with `CLUSTER_TEST_OUTPUT=<file>` the processes' output is kept there. */
  async close(): Promise<void> {
    for (const member of this.members.values()) await member.bot.kill();
    const keep = process.env.CLUSTER_TEST_OUTPUT;
    if (keep !== undefined) await writeFile(keep, this.output());
    await this.telegramBalancer.close();
    await this.slackBalancer.close();
    await this.telegram?.close();
    await this.slack?.close();
    await this.discord?.close();
    await this.model.close();
    await this.database.drop();
    await rm(this.dir, { recursive: true, force: true });
  }

  #member(name: string): ClusterMember {
    const member = this.members.get(name);
    if (member === undefined) throw new Error(`no cluster member ${name}`);
    return member;
  }
}
