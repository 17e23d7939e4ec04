import { createDiscordChannel, type DiscordChannel } from "@chorus/channel-discord";
import { createScratchDatabase, queryOnce, type ScratchDatabase, TEST_SERVER } from "@chorus/store-postgres/testing";
import { type FakeDiscord, type NetworkGate, startFakeDiscord, startNetworkGate } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ClusterInstance, startClusterInstance } from "./cluster-instance.js";

let database: ScratchDatabase;
let gate: NetworkGate;
let discord: FakeDiscord;
const instances: ClusterInstance<DiscordChannel>[] = [];

beforeAll(async () => {
  database = await createScratchDatabase();
  gate = await startNetworkGate(`postgres://${TEST_SERVER.host}:${TEST_SERVER.port}`);
  // Two guilds, one on each of the two shards Discord recommends.
  discord = await startFakeDiscord({ guilds: 2, shards: 2, heartbeatIntervalMs: 1000 });
});
afterAll(async () => {
  gate.open();
  for (const one of instances) await one.stop();
  await gate.close();
  await discord.close();
  await database.drop();
});

async function instance(name: string, port?: number): Promise<ClusterInstance<DiscordChannel>> {
  const one = await startClusterInstance({
    name,
    database: database.name,
    ...(port === undefined ? {} : { port }),
    channel: createDiscordChannel({
      accountId: "dc",
      token: discord.token,
      restApi: discord.restApi,
      shards: "auto",
      identifyIntervalMs: 100,
      registerCommands: false,
    }),
    channelConfig: { channel: "discord", groupPolicy: "open" },
  });
  instances.push(one);
  return one;
}

const botAnswers = (channelId: string): string[] =>
  discord
    .conversation(channelId)
    .filter((message) => message.author.bot === true)
    .map((message) => message.content);

describe("Discord shards on a cluster of gateways", () => {
  it("connects each shard once across two instances, answers both guilds once, and moves a lost instance's shard with what it missed", async () => {
    const a = await instance("a", gate.port);
    const b = await instance("b");
    // a took both shards alone; once b beats, a gives one back and b takes it.
    await vi.waitFor(
      () => {
        expect(
          [a.channel.connectedShards.length, b.channel.connectedShards.length],
          `warnings: ${[...a.warnings, ...b.warnings].slice(-6).join(" | ")}`,
        ).toEqual([1, 1]);
        expect(discord.connectedShards()).toEqual([0, 1]);
      },
      { timeout: 10_000 },
    );
    const { rows } = await queryOnce(database.url, "SELECT unit FROM ingress_leases ORDER BY unit");
    expect(rows.map((row) => String(row.unit).replace(/:[0-9a-f]{16}:/, ":<token>:"))).toEqual([
      "discord:<token>:0",
      "discord:<token>:1",
      // The IDENTIFY bucket of max_concurrency 1, paced across the instances.
      "pace:discord:<token>:identify:0",
    ]);

    const [first, second] = discord.guilds;
    const channels = [first?.general.id ?? "", second?.general.id ?? ""];
    for (const [round, channelId] of channels.entries()) {
      await discord.injectMention({ content: `hello ${round}`, channelId });
    }
    await vi.waitFor(() => expect(channels.map(botAnswers)).toEqual([["ok"], ["ok"]]), { timeout: 10_000 });

    // Every reply recorded as sent before the cut.
    await vi.waitFor(
      async () => {
        const { rows: unsent } = await queryOnce(
          database.url,
          "SELECT count(*)::int AS n FROM outbox WHERE status <> 'sent'",
        );
        expect(unsent[0]?.n).toBe(0);
      },
      { timeout: 5000 },
    );

    // a loses PostgreSQL: it closes its shard's socket before its lease can expire; a message for that shard's guild
    // meanwhile waits in its Discord session. b takes the shard, IDENTIFIES, and RESUMEs a's session (saved with the
    // lease) for what it missed.
    const lost = a.channel.connectedShards[0] ?? -1;
    const lostChannel = channels[lost] ?? "";
    const resumesBefore = discord.callsTo("gateway.resume").length;
    gate.shut();
    await vi.waitFor(() => expect(a.channel.connectedShards).toEqual([]), { timeout: 10_000 });
    await discord.injectMention({ content: "in the gap", channelId: lostChannel });
    await vi.waitFor(
      () => {
        expect([a.channel.connectedShards, b.channel.connectedShards]).toEqual([[], [0, 1]]);
        expect(discord.connectedShards()).toEqual([0, 1]);
      },
      { timeout: 15_000 },
    );
    const identifiesOfLost = discord
      .callsTo("gateway.identify")
      .filter((call) => (call.body as { shard: number[] }).shard[0] === lost);
    expect(identifiesOfLost.length).toBeGreaterThanOrEqual(2);
    // The taker RESUMEd the lost shard's session for what was sent in the gap (a shard handed over when b joined was
    // resumed the same way).
    const resumedAfterCut = () =>
      discord
        .callsTo("gateway.resume")
        .slice(resumesBefore)
        .map((call) => (call.body as { shard: number[] }).shard);
    await vi.waitFor(() => expect(resumedAfterCut()).toContainEqual([lost, 2]), { timeout: 10_000 });
    for (const [round, channelId] of channels.entries()) {
      await discord.injectMention({ content: `again ${round}`, channelId });
    }
    const expected = channels.map((channelId) => (channelId === lostChannel ? ["ok", "ok", "ok"] : ["ok", "ok"]));
    await vi.waitFor(() => expect(channels.map(botAnswers)).toEqual(expected), { timeout: 15_000 });
    await b.running.gateway.idle();
    expect(channels.map(botAnswers)).toEqual(expected);
  });
});
