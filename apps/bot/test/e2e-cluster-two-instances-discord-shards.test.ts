// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { type FakeDiscord, startFakeDiscord, startFakeOpenAI } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";
import { echoEveryMessage, startClusterInstance } from "./support/cluster-instances.js";

type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

let dir: string;
let database: ScratchDatabase;
let discord: FakeDiscord;
let openai: FakeOpenAI;
const bots: BotProcess[] = [];

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-e2e-discord-shards-"));
  database = await createScratchDatabase();
  // Two guilds, one on each of the two shards Discord recommends.
  discord = await startFakeDiscord({ guilds: 2, shards: 2, heartbeatIntervalMs: 1000 });
  openai = await startFakeOpenAI();
}, 300_000);

afterAll(async () => {
  for (const bot of bots) await bot.kill();
  await discord?.close();
  await openai?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("two chorus start instances in cluster mode on one Discord bot with two shards", () => {
  it("connects each shard from one instance, and after kill -9 of one the other takes its shard and answers what was sent meanwhile, once", async () => {
    echoEveryMessage(openai, 50);
    const start = async (name: string): Promise<BotProcess> => {
      const bot = await startClusterInstance({
        dir,
        name,
        openai,
        databaseUrl: database.url,
        channels: [
          "  discord:",
          "    - accountId: main",
          "      token: ${E2E_DISCORD_TOKEN}",
          `      restApi: ${JSON.stringify(discord.restApi)}`,
          "      shards: auto",
          "      identifyIntervalMs: 100",
          "      groupPolicy: open",
        ],
        env: { E2E_DISCORD_TOKEN: discord.token },
      });
      bots.push(bot);
      return bot;
    };
    const a = await start("a");
    const b = await start("b");
    const holders = async (): Promise<string[]> => {
      const { rows } = await queryOnce(
        database.url,
        "SELECT split_part(owner, '#', 1) AS holder FROM ingress_leases WHERE unit LIKE 'discord:%' ORDER BY unit",
      );
      return rows.map((row) => String(row.holder));
    };
    // Each instance connects one shard, and each shard is connected once.
    await vi.waitFor(
      async () => {
        expect((await holders()).sort(), [...a.lines, ...b.lines].slice(-8).join("\n")).toEqual(["a", "b"]);
        expect(discord.connectedShards()).toEqual([0, 1]);
      },
      { timeout: 20_000, interval: 200 },
    );

    const channels = discord.guilds.map((guild) => guild.general.id);
    const answers = (channelId: string): string[] =>
      discord
        .conversation(channelId)
        .filter((message) => message.author.bot === true)
        .map((message) => message.content);
    for (const [i, channelId] of channels.entries()) await discord.injectMention({ content: `one ${i}`, channelId });
    await vi.waitFor(
      () => expect(channels.map(answers)).toEqual([["echo: [alice]: one 0"], ["echo: [alice]: one 1"]]),
      {
        timeout: 20_000,
        interval: 100,
      },
    );

    // kill -9 of a: its socket drops without a close frame; a message for its shard waits in that Discord session.
    const shardOfA = (await holders()).indexOf("a");
    a.child.kill("SIGKILL");
    await a.exited;
    for (const [i, channelId] of channels.entries()) await discord.injectMention({ content: `two ${i}`, channelId });
    await vi.waitFor(
      async () => {
        expect(await holders()).toEqual(["b", "b"]);
        expect(channels.map(answers)).toEqual([
          ["echo: [alice]: one 0", "echo: [alice]: two 0"],
          ["echo: [alice]: one 1", "echo: [alice]: two 1"],
        ]);
      },
      { timeout: 30_000, interval: 200 },
    );
    const resumes = discord.callsTo("gateway.resume").map((call) => (call.body as { shard: number[] }).shard);
    expect(resumes).toContainEqual([shardOfA, 2]);

    // A graceful stop releases the shards at once.
    b.child.kill("SIGTERM");
    expect(await b.exited).toEqual({ code: 0, signal: null });
    const { rows } = await queryOnce(
      database.url,
      "SELECT count(*)::int AS held FROM ingress_leases WHERE owner IS NOT NULL",
    );
    expect(rows[0]?.held).toBe(0);
    expect(channels.map(answers)).toEqual([
      ["echo: [alice]: one 0", "echo: [alice]: two 0"],
      ["echo: [alice]: one 1", "echo: [alice]: two 1"],
    ]);
    for (const bot of [a, b]) expect(bot.lines.join("\n")).not.toContain(discord.token);
  }, 120_000);
});
