import type { InboundMessage, OutboundButton } from "@chorus/channel";
import type { InlineKeyboardMarkup, Update } from "grammy/types";
import type { TelegramSelf } from "./telegram-inbound.js";

/** Telegram's limit on an inline button's `callback_data`. */
const MAX_CALLBACK_DATA_BYTES = 64;

/**
 * Buttons as one row of an inline keyboard; each button's id travels as its `callback_data`.
 * Contract: undefined when there are no buttons; a button whose id exceeds 64 bytes is left out (Telegram would
 * refuse the whole message).
 */
export function inlineKeyboardOf(buttons: readonly OutboundButton[] | undefined): InlineKeyboardMarkup | undefined {
  const row = (buttons ?? [])
    .filter((button) => Buffer.byteLength(button.id) <= MAX_CALLBACK_DATA_BYTES)
    .map((button) => ({ text: button.label, callback_data: button.id }));
  return row.length === 0 ? undefined : { inline_keyboard: [row] };
}

/**
 * A press of an inline button as an inbound message from the person who pressed it, whose text is the button's id
 * (the OutboundButton contract), in the chat (and forum topic) of the message the button is under.
 * Contract: undefined for a callback without data or without its message (too old for Telegram to include it);
 * eventId is `${botId}:${update_id}` like other updates.
 */
export function normaliseTelegramCallback(
  update: Update,
  self: TelegramSelf,
  receivedAt: number,
): InboundMessage | undefined {
  const query = update.callback_query;
  const message = query?.message;
  if (query === undefined || query.data === undefined || message === undefined) return undefined;
  const name = [query.from.first_name, query.from.last_name].filter(Boolean).join(" ");
  const inbound: InboundMessage = {
    channel: "telegram",
    accountId: self.accountId,
    chatType: message.chat.type === "private" ? "dm" : "group",
    chatId: String(message.chat.id),
    messageId: `callback:${query.id}`,
    eventId: `${self.botId}:${update.update_id}`,
    sender: { id: String(query.from.id), name, isBot: query.from.is_bot },
    text: query.data,
    // A button under the bot's own message is addressed to the bot.
    mentionsBot: true,
    replyToBot: true,
    attachments: [],
    receivedAt,
  };
  const topic =
    "is_topic_message" in message && message.is_topic_message === true ? message.message_thread_id : undefined;
  return topic === undefined ? inbound : { ...inbound, threadId: String(topic) };
}
