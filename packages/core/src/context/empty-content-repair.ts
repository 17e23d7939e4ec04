import type { Message, UserMessage } from "../messages/message-types.js";

/** What an empty user message becomes where dropping it would leave two model turns in a row. */
export const EMPTY_MESSAGE_TEXT = "(a message with nothing to read)";

function blank(text: string): boolean {
  return text.trim() === "";
}

/** The user message without its blank text parts, or undefined when nothing is left. */
function readableUser(message: UserMessage): UserMessage | undefined {
  if (typeof message.content === "string") return blank(message.content) ? undefined : message;
  const parts = message.content.filter((part) => part.type !== "text" || !blank(part.text));
  if (parts.length === 0) return undefined;
  return parts.length === message.content.length ? message : { ...message, content: parts };
}

/**
 * Removes what providers reject as empty (Anthropic answers 400 to an empty text block, and then every later turn
 * of that transcript fails): blank text parts of user and assistant messages, and user messages left with nothing.
 * A dropped user message whose place would put two assistant turns in a row (or an assistant first) becomes
 * `EMPTY_MESSAGE_TEXT` instead, so the roles still alternate. Transcripts stored before this repair existed are
 * mended on every read; the stored messages are left as they are.
 * Contract: returns the input array itself when nothing is empty (the common case); never reorders.
 */
export function withoutEmptyContent(messages: Message[]): Message[] {
  if (!messages.some(hasEmptyContent)) return messages;
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const readable = readableUser(message);
      if (readable !== undefined) out.push(readable);
      else if (out.at(-1)?.role === "assistant") out.push({ ...message, content: EMPTY_MESSAGE_TEXT });
    } else if (message.role === "assistant") {
      const content = message.content.filter((block) => block.type !== "text" || !blank(block.text));
      out.push(content.length === message.content.length ? message : { ...message, content });
    } else {
      out.push(message);
    }
  }
  // A conversation opens with the user: an assistant first means its user message was the blank one.
  const first = messages.find((message) => message.role === "user");
  if (out[0]?.role === "assistant" && first !== undefined) out.unshift({ ...first, content: EMPTY_MESSAGE_TEXT });
  return out;
}

function hasEmptyContent(message: Message): boolean {
  if (message.role === "user") {
    return typeof message.content === "string"
      ? blank(message.content)
      : message.content.length === 0 || message.content.some((part) => part.type === "text" && blank(part.text));
  }
  if (message.role === "assistant") return message.content.some((block) => block.type === "text" && blank(block.text));
  return false;
}
