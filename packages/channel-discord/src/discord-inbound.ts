import type { InboundAttachment, InboundMessage } from "@chorus/channel";
import { stripLeadingMention } from "@chorus/channel";
import type { Message } from "discord.js";
import { discordAttachmentKind } from "./discord-attachment-kind.js";

/** Who the bot is, as needed to read mentions. */
export interface DiscordSelf {
  readonly accountId: string;
  readonly botUserId: string;
}

/**
 * Normalises a discord.js message: DMs → "dm", guild channels → "group", a thread's messages → the parent channel
 * as chatId and the thread as threadId. The bot's leading mention is removed from the text.
 * Contract: returns undefined for messages the gateway must never see (the bot's own, system messages).
 */
export function normaliseDiscordMessage(
  message: Message,
  self: DiscordSelf,
  receivedAt: number,
): InboundMessage | undefined {
  if (message.author.id === self.botUserId || message.system) return undefined;
  const channel = message.channel;
  const inThread = channel.isThread();
  const chatId = inThread ? (channel.parentId ?? message.channelId) : message.channelId;
  const ownMentions = [`<@${self.botUserId}>`, `<@!${self.botUserId}>`];
  const mentionsUser = ownMentions.some((mention) => message.content.includes(mention));
  const myRoles = message.guild?.members.me?.roles.cache;
  const mentionsRole = myRoles !== undefined && message.mentions.roles.some((role) => myRoles.has(role.id));
  const replyToBot = message.reference?.messageId !== undefined && message.mentions.repliedUser?.id === self.botUserId;
  const attachments: InboundAttachment[] = [...message.attachments.values()].map((file) => {
    const attachment: { -readonly [K in keyof InboundAttachment]: InboundAttachment[K] } = {
      id: file.id,
      name: file.name,
      sizeBytes: file.size,
      url: file.url,
      kind: discordAttachmentKind(file),
    };
    if (file.contentType !== null) attachment.mimeType = file.contentType;
    return attachment;
  });
  const inbound: InboundMessage = {
    channel: "discord",
    accountId: self.accountId,
    chatType: message.guildId === null ? "dm" : "group",
    chatId,
    messageId: message.id,
    // Discord has no delivery id; a message replayed after RESUME keeps its id, so the id is the dedupe key.
    eventId: message.id,
    sender: {
      id: message.author.id,
      name: message.author.globalName ?? message.author.username,
      isBot: message.author.bot,
    },
    text: stripLeadingMention(message.content, ownMentions),
    mentionsBot: mentionsUser || mentionsRole,
    replyToBot,
    attachments,
    receivedAt,
  };
  return {
    ...inbound,
    ...(inThread ? { threadId: message.channelId } : {}),
    ...(message.guildId === null ? {} : { guildId: message.guildId }),
  };
}
