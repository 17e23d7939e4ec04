import type { InboundMessage } from "@chorus/channel";
import { stripLeadingMention } from "@chorus/channel";
import type { Message, Update } from "grammy/types";
import { telegramAttachmentsOf } from "./telegram-attachments.js";

/** Who the bot is, as needed to read mentions. */
export interface TelegramSelf {
  readonly accountId: string;
  readonly botId: number;
  readonly username: string;
}

/**
 * Normalises a Telegram update carrying a message: private chats → "dm", groups and supergroups → "group",
 * forum topics → threadId. Mentions: an `@username` entity, a `text_mention` of the bot, a reply to the bot, a
 * `/command@botname` (or a bare `/command`, which Telegram addresses to every bot in the group).
 * Contract: returns undefined for updates without a message (channel posts, edits, callbacks); eventId is
 * `${botId}:${update_id}`, unique per bot.
 */
export function normaliseTelegramUpdate(
  update: Update,
  self: TelegramSelf,
  receivedAt: number,
): InboundMessage | undefined {
  const message = update.message;
  if (message === undefined) return undefined;
  const text = message.text ?? message.caption ?? "";
  const mention = readMentions(message, text, self);
  const inbound: InboundMessage = {
    channel: "telegram",
    accountId: self.accountId,
    chatType: message.chat.type === "private" ? "dm" : "group",
    chatId: String(message.chat.id),
    messageId: String(message.message_id),
    eventId: `${self.botId}:${update.update_id}`,
    sender: senderOf(message),
    text: cleanText(text, self.username),
    mentionsBot: mention,
    replyToBot: isReplyToBot(message, self),
    attachments: telegramAttachmentsOf(message),
    receivedAt,
  };
  const topic = message.is_topic_message === true ? message.message_thread_id : undefined;
  return topic === undefined ? inbound : { ...inbound, threadId: String(topic) };
}

/**
 * Normalises the updates of one album (a media group: one message per photo, video or document, sent together) as
 * one message: the first item's ids (the lowest message id), every item's attachments in order, and the caption of
 * the item that carries one (Telegram puts it on one item) with its mentions.
 * Contract: returns undefined when no update carries a message; otherwise as `normaliseTelegramUpdate`.
 */
export function normaliseTelegramAlbum(
  updates: readonly Update[],
  self: TelegramSelf,
  receivedAt: number,
): InboundMessage | undefined {
  const items = updates
    .filter((update) => update.message !== undefined)
    .sort((a, b) => (a.message?.message_id ?? 0) - (b.message?.message_id ?? 0))
    .map((update) => normaliseTelegramUpdate(update, self, receivedAt))
    .filter((item): item is InboundMessage => item !== undefined);
  const [first] = items;
  if (first === undefined) return undefined;
  const captioned = items.find((item) => item.text !== "") ?? first;
  return {
    ...first,
    text: captioned.text,
    mentionsBot: items.some((item) => item.mentionsBot),
    replyToBot: items.some((item) => item.replyToBot),
    attachments: items.flatMap((item) => item.attachments),
  };
}

function senderOf(message: Message): InboundMessage["sender"] {
  if (message.from !== undefined) {
    const name = [message.from.first_name, message.from.last_name].filter(Boolean).join(" ");
    return { id: String(message.from.id), name, isBot: message.from.is_bot };
  }
  const chat = message.sender_chat ?? message.chat;
  return { id: String(chat.id), name: "title" in chat && chat.title !== undefined ? chat.title : "", isBot: false };
}

function readMentions(message: Message, text: string, self: TelegramSelf): boolean {
  const handle = `@${self.username}`.toLowerCase();
  for (const entity of message.entities ?? message.caption_entities ?? []) {
    const slice = text.slice(entity.offset, entity.offset + entity.length).toLowerCase();
    if (entity.type === "mention" && slice === handle) return true;
    if (entity.type === "text_mention" && entity.user.id === self.botId) return true;
    if (entity.type === "bot_command" && entity.offset === 0) {
      const at = slice.indexOf("@");
      if (at < 0 || slice.slice(at) === handle) return true;
    }
  }
  return false;
}

function isReplyToBot(message: Message, self: TelegramSelf): boolean {
  const replied = message.reply_to_message;
  // In forum topics every message replies to the topic's creation message; that is not a reply to the bot.
  if (replied === undefined || replied.forum_topic_created !== undefined) return false;
  return replied.from?.id === self.botId;
}

function cleanText(text: string, username: string): string {
  const withoutMention = stripLeadingMention(text, [`@${username}`]);
  // "/agents@chorus_bot args" reads as "/agents args".
  const command = /^(\/[A-Za-z0-9_]+)@([A-Za-z0-9_]+)/.exec(withoutMention);
  if (command?.[2]?.toLowerCase() !== username.toLowerCase()) return withoutMention;
  return `${command[1]}${withoutMention.slice(command[0].length)}`;
}
