import type { InboundMessage } from "@chorus/channel";
import type { UserMessage } from "@chorus/core";

/**
 * The transcript message for an inbound chat message. In groups the sender's name leads (several people share the
 * session); attachments are listed by name so the agent knows they exist.
 * Contract: pure apart from using `receivedAt` as the timestamp.
 */
export function inboundUserMessage(message: InboundMessage): UserMessage {
  const files = message.attachments.map((a) => `[attachment: ${a.name}${a.mimeType ? ` (${a.mimeType})` : ""}]`);
  const body = [message.text, ...files].filter((part) => part !== "").join("\n");
  const content = message.chatType === "group" ? `[${message.sender.name}]: ${body}` : body;
  return { role: "user", content, timestamp: message.receivedAt };
}
