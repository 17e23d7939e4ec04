import type { Channel, InboundMessage } from "@chorus/gateway";

/** The channel factories of @chorus/gateway, typed locally so the bench builds before they are exported. */
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
 * Loads the channel factories from @chorus/gateway's dist.
 * Contract: resolves with the reason instead of throwing when they are not there (package not built, or built
 * before the channels were exported).
 */
export async function loadChannelFactories(): Promise<ChannelFactories | { unavailable: string }> {
  try {
    const gateway = (await import("@chorus/gateway")) as unknown as Partial<ChannelFactories>;
    if (
      typeof gateway.createDiscordChannel !== "function" ||
      typeof gateway.createSlackChannel !== "function" ||
      typeof gateway.createTelegramChannel !== "function"
    ) {
      return { unavailable: "n/a (@chorus/gateway does not export the channels)" };
    }
    return gateway as ChannelFactories;
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    return { unavailable: `n/a (@chorus/gateway not built: ${reason})` };
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
