import type { ChannelAccountOptions, InboundMessage } from "@chorus/channel";
import type { Client } from "discord.js";
import { normaliseDiscordButtonPress } from "./discord-buttons.js";
import { type DeferralTimers, normaliseDiscordCommand } from "./discord-commands.js";
import { toDiscordChannelError } from "./discord-errors.js";
import { type DiscordSelf, normaliseDiscordMessage } from "./discord-inbound.js";
import type { ReplayFirstInbound } from "./replay-first-inbound.js";

/** What the inbound listeners of a shard's client read, from the channel that runs the shard. */
export interface InboundListening {
  /** discord.js, loaded by the channel on start (this file imports only its types). */
  readonly discord: typeof import("discord.js");
  /** Who the bot is; read per event, as it is unknown before start and gone after stop (events are then dropped). */
  readonly self: () => DiscordSelf | undefined;
  readonly now: () => number;
  readonly timers: DeferralTimers;
  /** Hands a normalised message to the gateway (undefined: one the gateway must never see); settles once it did. */
  readonly deliver: (inbound: InboundMessage | undefined) => Promise<void>;
  readonly options: Pick<ChannelAccountOptions, "onError">;
}

/**
 * Listens on a shard's discord.js client for messages, slash commands and button presses, and hands each on through
 * `inbound` (which keeps a taken-over shard's live messages back until the previous holder's replayed ones are on).
 * Contract: a button press is acknowledged at once; a failed acknowledgement goes to `onError`; `handedOn` hears each
 * message id once its delivery settled (or at once, for one dropped).
 */
export function listenForInbound(
  client: Client,
  inbound: ReplayFirstInbound,
  listening: InboundListening,
  handedOn: (messageId: string) => void,
): void {
  const { discord, deliver } = listening;
  client.on(discord.Events.MessageCreate, (message) => {
    const self = listening.self();
    const normalised = self === undefined ? undefined : normaliseDiscordMessage(message, self, listening.now());
    inbound.pass(() => {
      void deliver(normalised).finally(() => handedOn(message.id));
    });
  });
  client.on(discord.Events.InteractionCreate, (interaction) => {
    const self = listening.self();
    if (self === undefined) return;
    if (interaction.isChatInputCommand()) {
      const command = normaliseDiscordCommand(interaction, self, listening.now(), listening.timers);
      inbound.pass(() => void deliver(command));
    } else if (interaction.isButton()) {
      // Acknowledged at once with DEFERRED_UPDATE_MESSAGE (type 6): Discord shows "This interaction failed" after
      // 3 s without an answer, and the gateway answers a press with an ordinary message, not through the press.
      interaction
        .deferUpdate()
        .catch((error: unknown) => listening.options.onError?.(toDiscordChannelError(error, "button acknowledgement")));
      const press = normaliseDiscordButtonPress(interaction, self, listening.now());
      inbound.pass(() => void deliver(press));
    }
  });
}
