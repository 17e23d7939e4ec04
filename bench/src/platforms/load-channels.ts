import type { Channel, InboundMessage } from "@chorus/gateway";

/** The channel factories of the @chorus/channel-* packages, typed locally so the bench builds without them. */
export interface ChannelFactories {
  createDiscordChannel(options: {
    accountId: string;
    token: string;
    restApi?: string;
    globalRequestsPerSecond?: number;
  }): Channel;
  createSlackChannel(options: {
    accountId: string;
    mode: "socket";
    botToken: string;
    appToken: string;
    slackApiUrl?: string;
    respondToAllMessages?: boolean;
  }): Channel;
  createTelegramChannel(options: { accountId: string; token: string; apiRoot?: string }): Channel;
}

/**
 * Loads the channel factories from the dist of @chorus/channel-discord, -slack and -telegram.
 * Contract: resolves with the reason instead of throwing when they are not there (a package not built).
 */
export async function loadChannelFactories(): Promise<ChannelFactories | { unavailable: string }> {
  try {
    const [discord, slack, telegram] = (await Promise.all([
      import("@chorus/channel-discord"),
      import("@chorus/channel-slack"),
      import("@chorus/channel-telegram"),
    ])) as unknown as Partial<ChannelFactories>[];
    const factories = { ...discord, ...slack, ...telegram };
    if (
      typeof factories.createDiscordChannel !== "function" ||
      typeof factories.createSlackChannel !== "function" ||
      typeof factories.createTelegramChannel !== "function"
    ) {
      return { unavailable: "n/a (the @chorus/channel-* packages do not export the channel factories)" };
    }
    return factories as ChannelFactories;
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    return { unavailable: `n/a (a @chorus/channel-* package is not built: ${reason})` };
  }
}

/**
 * An echo bot through a Channel: every inbound message is answered with `echo: <text>` in the same chat/thread.
 * Contract: resolves once the channel is started; `stop` stops it.
 */
export async function startChannelEcho(channel: Channel): Promise<{ stop(): Promise<void> }> {
  await channel.start(async (message: InboundMessage) => {
    const target =
      message.threadId === undefined
        ? { chatType: message.chatType, chatId: message.chatId }
        : { chatType: message.chatType, chatId: message.chatId, threadId: message.threadId };
    await channel.send(target, { text: `echo: ${message.text}` });
  });
  return { stop: () => channel.stop() };
}
