import { once } from "node:events";
import { Client, Events, GatewayIntentBits, Partials } from "discord.js";
import type { FakeDiscord } from "../src/platforms/index.js";

/** Logs a real discord.js Client in to the fake with the intents a bot needs; resolves once it is ready. */
export async function connectDiscordClient(
  fake: FakeDiscord,
  sharding: { shards?: number[]; shardCount?: number } = {},
): Promise<Client> {
  const client = new Client({
    ...sharding,
    // @discordjs/ws spaces IDENTIFYs 5 s apart by default; nothing to throttle against a fake.
    ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) },
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.MessageContent,
    ],
    partials: [Partials.Channel],
    rest: { api: fake.restApi },
  });
  const ready = once(client, Events.ClientReady);
  await client.login(fake.token);
  await ready;
  return client;
}
