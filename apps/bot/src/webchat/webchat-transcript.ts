import type { AgentMessage, UserMessage } from "@chorus/core";
import type { TranscriptEntry } from "@chorus/gateway";
import type { WebchatFile, WebchatMessage, WebchatRoom } from "./webchat-protocol.js";

/** A group transcript's user message starts with its sender's name: `[guest-ab12cd]: text`. */
const GROUP_SENDER = /^\[([^\]\n]{1,80})\]: ([\s\S]*)$/;

/** Who a stored conversation belongs to, to label its messages. */
export interface TranscriptOwner {
  readonly room: WebchatRoom;
  /** For a DM: the browser's public id and name (every user message there is theirs). */
  readonly dmSender?: { readonly id: string; readonly name: string };
}

/**
 * A session's stored transcript as the page shows it: user messages (with the files they attached, by name) and the
 * bot's text answers, in order; tool calls, tool results and empty answers left out.
 * Contract: pure; ids are `s<seq>` prefixed with the room, unique within one page.
 */
export function transcriptToWebchat(entries: readonly TranscriptEntry[], owner: TranscriptOwner): WebchatMessage[] {
  const messages: WebchatMessage[] = [];
  for (const entry of entries) {
    const shown = shownMessage(entry.message, `${owner.room}-s${entry.seq}`, owner);
    if (shown !== undefined) messages.push(shown);
  }
  return messages;
}

/** A file the person attached, named in the page (its bytes stay with the channel). */
function attachedFile(part: Exclude<UserMessage["content"], string>[number]): WebchatFile[] {
  if (part.type !== "attachment") return [];
  return [
    {
      id: part.source.id,
      name: part.name,
      ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }),
      ...(part.sizeBytes === undefined ? {} : { sizeBytes: part.sizeBytes }),
    },
  ];
}

function shownMessage(message: AgentMessage, id: string, owner: TranscriptOwner): WebchatMessage | undefined {
  if (message.role === "assistant") {
    const text = message.content
      .flatMap((part) => (part.type === "text" ? [part.text] : []))
      .join("")
      .trim();
    if (text === "") return undefined;
    return { id, room: owner.room, role: "bot", text, senderName: "Chorus", at: message.timestamp };
  }
  if (message.role !== "user") return undefined;
  const content =
    typeof message.content === "string"
      ? message.content
      : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  const files = typeof message.content === "string" ? [] : message.content.flatMap(attachedFile);
  const withFiles = files.length === 0 ? {} : { files };
  if (owner.dmSender !== undefined) {
    const { id: senderId, name } = owner.dmSender;
    return {
      id,
      room: owner.room,
      role: "user",
      text: content,
      senderName: name,
      senderId,
      at: message.timestamp,
      ...withFiles,
    };
  }
  const match = GROUP_SENDER.exec(content);
  return {
    id,
    room: owner.room,
    role: "user",
    text: match?.[2] ?? content,
    senderName: match?.[1] ?? "someone",
    at: message.timestamp,
    ...withFiles,
  };
}
