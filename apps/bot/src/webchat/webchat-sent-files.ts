import type { OutboundFile } from "@chorus/gateway";
import type { SentMeta, WebchatFileStore } from "./webchat-file-store.js";
import { inlineImageType, safeMimeType, uploadName } from "./webchat-file-types.js";
import type { WebchatMessage, WebchatRoom } from "./webchat-protocol.js";

/** A file message's id is this and the file's id: unique across restarts and instances, and tied to its file. */
const FILE_MESSAGE_PREFIX = "file-";

/** The message id of the message showing sent file `fileId`. */
export function fileMessageId(fileId: string): string {
  return `${FILE_MESSAGE_PREFIX}${fileId}`;
}

/** The file a message id shows, for a file message; undefined for any other message. Contract: pure. */
export function fileIdOfMessage(messageId: string): string | undefined {
  return messageId.startsWith(FILE_MESSAGE_PREFIX) ? messageId.slice(FILE_MESSAGE_PREFIX.length) : undefined;
}

/**
 * A file the bot sent, as the page shows it: its caption as the text, a download link (`/files/<id>`) and, for a
 * raster image, an inline preview. Contract: pure.
 */
export function sentFileMessage(fileId: string, meta: SentMeta): WebchatMessage {
  return {
    id: meta.messageId,
    room: meta.room,
    role: "bot",
    text: meta.caption ?? "",
    senderName: "Chorus",
    at: meta.at,
    files: [
      {
        id: fileId,
        name: meta.name,
        mimeType: meta.mimeType,
        sizeBytes: meta.sizeBytes,
        url: `/files/${fileId}`,
        image: inlineImageType(meta.mimeType),
      },
    ],
  };
}

/** Keeps a file the bot sends to a chat (room and chat id) and resolves with the message that shows it. */
export async function storeSentFile(
  store: WebchatFileStore,
  place: { readonly room: WebchatRoom; readonly chatId: string },
  file: OutboundFile,
  at: number,
): Promise<WebchatMessage> {
  const meta = (id: string): Omit<SentMeta, "kind" | "sizeBytes"> => ({
    name: uploadName(file.name),
    mimeType: safeMimeType(file.mimeType) ?? "application/octet-stream",
    at,
    room: place.room,
    chatId: place.chatId,
    messageId: fileMessageId(id),
    ...(file.caption === undefined || file.caption === "" ? {} : { caption: file.caption }),
  });
  const id = await store.save(file.bytes, meta);
  return sentFileMessage(id, { kind: "sent", ...meta(id), sizeBytes: file.bytes.byteLength });
}
