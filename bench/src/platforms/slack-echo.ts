import { type FakeSlack, startFakeSlack } from "@chorus/testkit";
import { bodyText, type EchoPlatform, type EchoSystem } from "./echo-bot.js";
import { echoSystems } from "./echo-systems.js";
import type { GatewayPieces } from "./gateway-echo.js";
import type { ChannelFactories } from "./load-channels.js";

const CHANNELS = 20;

// Channel ids per fake, created once when the fake starts.
const channelIds = new WeakMap<FakeSlack, string[]>();

const rawBolt: EchoSystem<FakeSlack> = {
  name: "@slack/bolt (raw)",
  async start(fake) {
    const { App, LogLevel, SocketModeReceiver } = await import("@slack/bolt");
    const clientOptions = { slackApiUrl: fake.apiUrl };
    const app = new App({
      token: fake.botToken,
      logLevel: LogLevel.ERROR,
      clientOptions,
      receiver: new SocketModeReceiver({
        appToken: fake.appToken,
        logLevel: LogLevel.ERROR,
        installerOptions: { clientOptions },
      }),
    });
    app.message(async ({ message, say }) => {
      const m = message as { subtype?: string; text?: string };
      if (m.subtype !== undefined) return;
      await say(`echo: ${m.text ?? ""}`);
    });
    await app.start();
    return {
      stop: async () => {
        await app.stop();
      },
    };
  },
};

/** Slack (Socket Mode): 20 channels the app is in; bolt echo vs the same through SlackChannel. */
export function slackEcho(
  factories: ChannelFactories | undefined,
  gateway: GatewayPieces | undefined,
): EchoPlatform<FakeSlack> {
  const systems = echoSystems(
    rawBolt,
    {
      channelName: "SlackChannel",
      createChannel:
        factories &&
        ((fake) =>
          factories.createSlackChannel({
            accountId: "bench",
            mode: "socket",
            botToken: fake.botToken,
            appToken: fake.appToken,
            slackApiUrl: fake.apiUrl,
            respondToAllMessages: true,
          })),
      groupChatIds: (fake) => channelIds.get(fake) ?? [],
    },
    gateway,
  );
  return {
    name: "Slack",
    chats: CHANNELS,
    startFake: async () => {
      const fake = await startFakeSlack({ mode: "socket" });
      channelIds.set(
        fake,
        Array.from({ length: CHANNELS }, (_, i) => fake.addChannel(`bench-${i}`)),
      );
      return fake;
    },
    closeFake: (fake) => fake.close(),
    inject: async (fake, chat, text) => {
      await fake.injectChannelMessage({ text, channel: channelIds.get(fake)?.[chat] ?? fake.channels.general });
    },
    sendCalls: (fake) => fake.callsTo("chat.postMessage"),
    sentText: (call) => bodyText(call, "text"),
    waitForSends: async (fake, count) => {
      await fake.waitForCall("chat.postMessage", count, 120_000);
    },
    systems,
  };
}
