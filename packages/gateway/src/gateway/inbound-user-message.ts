import type { InboundAttachment, InboundMessage } from "@chorus/channel";
import type { AttachmentContent, UserContent, UserMessage } from "@chorus/core";

/**
 * The transcript message for an inbound chat message. In groups the sender's name leads (several people share the
 * session). Attachments are kept as references (where the platform keeps the file, its name, type and size), never
 * their bytes: a stream wrapper (the media extension) turns them into what the model reads before each call, and a
 * provider that meets one unresolved lists it by name.
 * Contract: pure apart from using `receivedAt` as the timestamp; a message without attachments has string content.
 */
export function inboundUserMessage(message: InboundMessage): UserMessage {
  const body = message.text;
  const text = message.chatType === "group" ? `[${message.sender.name}]: ${body}` : body;
  if (message.attachments.length === 0) return { role: "user", content: text, timestamp: message.receivedAt };
  const content: UserContent[] = [];
  if (text !== "") content.push({ type: "text", text });
  for (const attachment of message.attachments) content.push(attachmentContent(message, attachment));
  return { role: "user", content, timestamp: message.receivedAt };
}

function attachmentContent(message: InboundMessage, attachment: InboundAttachment): AttachmentContent {
  const source: AttachmentContent["source"] = {
    channel: message.channel,
    accountId: message.accountId,
    id: attachment.id,
    chatId: message.chatId,
    messageId: message.messageId,
    ...(attachment.url === undefined ? {} : { url: attachment.url }),
    ...(attachment.uniqueId === undefined ? {} : { uniqueId: attachment.uniqueId }),
  };
  return {
    type: "attachment",
    name: attachment.name,
    source,
    ...(attachment.mimeType === undefined ? {} : { mimeType: attachment.mimeType }),
    ...(attachment.sizeBytes === undefined ? {} : { sizeBytes: attachment.sizeBytes }),
    ...(attachment.kind === undefined ? {} : { kind: attachment.kind }),
  };
}
