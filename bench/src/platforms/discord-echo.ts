import { type FakeDiscord, startFakeDiscord } from "@chorus/testkit";
import { bodyText, type EchoPlatform, type EchoSystem } from "./echo-bot.js";
import { echoSystems } from "./echo-systems.js";
import type { GatewayPieces } from "./gateway-echo.js";
import type { ChannelFactories } from "./load-channels.js";

const CHANNELS = 50;
// Both bots lift @discordjs/rest's global cap the same way, so the comparison is of the layers, not the caps.
const REQUESTS_PER_SECOND = 100_000;

const rawDiscordJs: EchoSystem<FakeDiscord> = {
  name: "discord.js (raw)",
  async start(fake) {
    const { Client, Events, GatewayIntentBits, Partials } = await import("discord.js");
    const client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.DirectMessages,
        GatewayIntentBits.MessageContent,
      ],
      partials: [Partials.Channel],
      rest: { api: fake.restApi, globalRequestsPerSecond: REQUESTS_PER_SECOND },
    });
    client.on(Events.MessageCreate, (message) => {
      if (message.author.bot || !message.channel.isSendable()) return;
      void message.channel.send(`echo: ${message.content}`);
    });
    const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
    await client.login(fake.token);
    await ready;
    return { stop: () => client.destroy() };
  },
};

/** Discord: 50 guild text channels; discord.js echo vs the same through DiscordChannel. */
export function discordEcho(
  factories: ChannelFactories | undefined,
  gateway: GatewayPieces | undefined,
): EchoPlatform<FakeDiscord> {
  const systems = echoSystems(
    rawDiscordJs,
    {
      channelName: "DiscordChannel",
      createChannel:
        factories &&
        ((fake) =>
          factories.createDiscordChannel({
            accountId: "bench",
            token: fake.token,
            restApi: fake.restApi,
            globalRequestsPerSecond: REQUESTS_PER_SECOND,
          })),
      groupChatIds: (fake) => fake.guild.textChannels.map((c) => c.id),
    },
    gateway,
  );
  return {
    name: "Discord",
    chats: CHANNELS,
    startFake: () => startFakeDiscord({ extraTextChannels: CHANNELS - 2, echoBotMessages: false }),
    closeFake: (fake) => fake.close(),
    inject: async (fake, chat, text) => {
      const target = fake.guild.textChannels[chat] ?? fake.guild.general;
      await fake.injectChannelMessage({ content: text, channelId: target.id });
    },
    sendCalls: (fake) => fake.callsTo("createMessage"),
    sentText: (call) => bodyText(call, "content"),
    waitForSends: async (fake, count) => {
      await fake.waitForCall("createMessage", count, 120_000);
    },
    systems,
  };
}
