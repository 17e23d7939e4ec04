import type { InboundMessage } from "@chorus/channel";
import type { ButtonInteraction, ChatInputCommandInteraction } from "discord.js";

/** Where an interaction happened, as the InboundMessage fields that say so. */
export type DiscordInteractionPlace = Pick<InboundMessage, "chatType" | "chatId" | "threadId" | "guildId">;

/**
 * The chat of a slash command or button press, read the way messages are: a DM → "dm", a guild channel → "group",
 * a thread → its parent channel as chatId and the thread as threadId, so a press lands in the conversation of the
 * message it is under.
 */
export function discordInteractionPlace(
  interaction: Pick<ChatInputCommandInteraction | ButtonInteraction, "channel" | "channelId" | "guildId">,
): DiscordInteractionPlace {
  const channel = interaction.channel;
  const inThread = channel?.isThread() === true;
  const chatId = inThread ? (channel?.parentId ?? interaction.channelId) : interaction.channelId;
  return {
    chatType: interaction.guildId === null ? "dm" : "group",
    chatId,
    ...(inThread ? { threadId: interaction.channelId } : {}),
    ...(interaction.guildId === null ? {} : { guildId: interaction.guildId }),
  };
}
