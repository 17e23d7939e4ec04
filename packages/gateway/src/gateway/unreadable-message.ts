import type { InboundMessage } from "@chorus/channel";

/** What the chat is told about a message with nothing the agent can read. */
export const UNREADABLE_MESSAGE_TEXT = "I can't read this kind of message — please send text, a photo or a file.";

/**
 * Whether a message carries nothing the agent can read: no text and no attachment (a location, a poll, a contact the
 * channel does not hand over). Such a message is never stored nor sent to a model: an empty user
 * message is rejected by providers (Anthropic: 400), and would fail every later turn of the chat.
 * Contract: pure.
 */
export function isUnreadableMessage(message: InboundMessage): boolean {
  return message.text.trim() === "" && message.attachments.length === 0;
}

/**
 * Whether the chat hears `UNREADABLE_MESSAGE_TEXT`: always in a DM; in a group only when the message was addressed to
 * the bot (a mention or a reply to it), so that what people send each other is not answered one by one.
 */
export function tellsUnreadable(message: InboundMessage): boolean {
  return message.chatType === "dm" || message.mentionsBot || message.replyToBot;
}
