import { type FakeTelegram, startFakeTelegram, type TgUser } from "@chorus/testkit";
import { bodyText, type EchoPlatform, type EchoSystem } from "./echo-bot.js";
import { echoSystems } from "./echo-systems.js";
import type { GatewayPieces } from "./gateway-echo.js";
import type { ChannelFactories } from "./load-channels.js";

const USERS = 50;

const users: TgUser[] = Array.from({ length: USERS }, (_, i) => ({
  id: 50_000 + i,
  is_bot: false,
  first_name: `User ${i}`,
}));

const rawGrammy: EchoSystem<FakeTelegram> = {
  name: "grammy + runner (raw)",
  async start(fake) {
    const [{ Bot }, { run }] = await Promise.all([import("grammy"), import("@grammyjs/runner")]);
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    bot.on("message:text", async (ctx) => {
      await ctx.api.sendMessage(ctx.chat.id, `echo: ${ctx.message.text}`);
    });
    await bot.init();
    const runner = run(bot);
    return {
      stop: async () => {
        if (runner.isRunning()) await runner.stop();
      },
    };
  },
};

/** Telegram: private chats with 50 users; grammy with the runner vs the same through TelegramChannel. */
export function telegramEcho(
  factories: ChannelFactories | undefined,
  gateway: GatewayPieces | undefined,
): EchoPlatform<FakeTelegram> {
  const systems = echoSystems(
    rawGrammy,
    {
      channelName: "TelegramChannel",
      createChannel:
        factories &&
        ((fake) => factories.createTelegramChannel({ accountId: "bench", token: fake.token, apiRoot: fake.apiRoot })),
      groupChatIds: () => [],
    },
    gateway,
  );
  return {
    name: "Telegram",
    chats: USERS,
    startFake: () => startFakeTelegram(),
    closeFake: (fake) => fake.close(),
    inject: async (fake, chat, text) => {
      await fake.injectDm({ text, from: users[chat] ?? fake.user });
    },
    sendCalls: (fake) => fake.callsTo("sendMessage"),
    sentText: (call) => bodyText(call, "text"),
    waitForSends: async (fake, count) => {
      await fake.waitForCall("sendMessage", count, 120_000);
    },
    systems,
  };
}
