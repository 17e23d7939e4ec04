import { Events, type Message } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";
import { startFakeDiscord } from "../src/platforms/index.js";
import { connectDiscordClient } from "./discord-test-client.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

/** Collects the contents of the messages a client hears, by the shard they came on. */
function heard(client: Awaited<ReturnType<typeof connectDiscordClient>>): string[] {
  const contents: string[] = [];
  client.on(Events.MessageCreate, (message: Message) => {
    contents.push(message.content);
  });
  return contents;
}

describe("fake Discord shards", () => {
  it("recommends its shard count, and routes each guild to its shard and DMs to shard 0", async () => {
    const fake = cleanup.track(await startFakeDiscord({ guilds: 2, shards: 2, maxConcurrency: 1 }));
    const gatewayBot = (await (
      await fetch(`${fake.restApi}/v10/gateway/bot`, { headers: { authorization: `Bot ${fake.token}` } })
    ).json()) as { shards: number; session_start_limit: { max_concurrency: number } };
    expect([gatewayBot.shards, gatewayBot.session_start_limit.max_concurrency]).toEqual([2, 1]);

    // Two clients, one shard each (as two processes would hold them).
    const zero = cleanup.track(await connectDiscordClient(fake, { shards: [0], shardCount: 2 }));
    const one = cleanup.track(await connectDiscordClient(fake, { shards: [1], shardCount: 2 }));
    expect(fake.connectedShards()).toEqual([0, 1]);
    expect(fake.callsTo("gateway.identify").map((call) => (call.body as { shard: unknown }).shard)).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect([zero.guilds.cache.size, one.guilds.cache.size]).toEqual([1, 1]);
    const [first, second] = fake.guilds;
    expect(zero.guilds.cache.has(first?.id ?? "")).toBe(true);
    expect(one.guilds.cache.has(second?.id ?? "")).toBe(true);

    const onZero = heard(zero);
    const onOne = heard(one);
    await fake.injectChannelMessage({ content: "in guild 1", channelId: first?.general.id ?? "" });
    await fake.injectChannelMessage({ content: "in guild 2", channelId: second?.general.id ?? "" });
    await fake.injectDm({ content: "a DM" });
    await expect.poll(() => [onZero, onOne]).toEqual([["in guild 1", "a DM"], ["in guild 2"]]);
  });

  it("keeps a shard's events while nobody is connected and replays them to a RESUME", async () => {
    const fake = cleanup.track(await startFakeDiscord({ guilds: 2, shards: 2, heartbeatIntervalMs: 1_000 }));
    const one = cleanup.track(await connectDiscordClient(fake, { shards: [1], shardCount: 2 }));
    const onOne = heard(one);
    expect(fake.dropConnection({ shard: 1 })).toBe(true);
    await fake.injectChannelMessage({ content: "while cut", channelId: fake.guilds[1]?.general.id ?? "" });
    await expect.poll(() => onOne).toEqual(["while cut"]);
    expect(fake.callsTo("gateway.resume")[0]?.body).toMatchObject({ shard: [1, 2] });
  });

  it("refuses an IDENTIFY with a shard id outside its count", async () => {
    const fake = cleanup.track(await startFakeDiscord({ shards: 2 }));
    await expect(connectDiscordClient(fake, { shards: [2], shardCount: 2 })).rejects.toThrow();
  });
});
