import type { Channel } from "@chorus/gateway";
import type { EchoSystem } from "./echo-bot.js";
import { type GatewayPieces, startGatewayEcho } from "./gateway-echo.js";
import { startChannelEcho } from "./load-channels.js";

/** How one platform's Chorus rows are built: its Channel on a fake, and the group chats the Gateway answers in. */
export interface ChorusEchoRows<Fake> {
  /** The Chorus channel's name, e.g. "DiscordChannel". */
  readonly channelName: string;
  /** A new channel pointed at the fake; undefined when @chorus/gateway's channels are not loadable. */
  readonly createChannel: ((fake: Fake) => Channel) | undefined;
  /** Group chats the Gateway answers without a mention. */
  readonly groupChatIds: (fake: Fake) => readonly string[];
}

/**
 * The systems of one platform's echo table, in order: the raw library, the Chorus channel alone, the full Gateway.
 * Contract: a Chorus row is left out when what it needs did not load (the table then says why).
 */
export function echoSystems<Fake>(
  raw: EchoSystem<Fake>,
  rows: ChorusEchoRows<Fake>,
  gateway: GatewayPieces | undefined,
): EchoSystem<Fake>[] {
  const { createChannel } = rows;
  if (createChannel === undefined) return [raw];
  const channel: EchoSystem<Fake> = {
    name: rows.channelName,
    start: (fake) => startChannelEcho(createChannel(fake)),
  };
  if (gateway === undefined) return [raw, channel];
  return [
    raw,
    channel,
    {
      name: "Gateway (SQLite)",
      start: (fake) => startGatewayEcho(gateway, createChannel(fake), rows.groupChatIds(fake)),
    },
  ];
}
