import type { AttachmentKind, InboundAttachment } from "@chorus/channel";
import type { Message } from "grammy/types";

/** The file fields every Telegram media object has. */
interface TelegramFileFields {
  readonly file_id: string;
  readonly file_unique_id: string;
  readonly file_size?: number;
}

/**
 * The files a Telegram message carries, as InboundAttachments: `id` its `file_id` (what `getFile` takes), `uniqueId`
 * its `file_unique_id`, `sizeBytes` its `file_size`. A photo is its largest size (`image`, image/jpeg); a voice note
 * `voice` (audio/ogg); audio, video, video notes and animations with their types; a document its name and type (an
 * image document is an `image`); a static sticker an `image` (image/webp), an animated (`.tgs`) or video (`.webm`)
 * sticker a `sticker`, so the gateway can mention it without showing it to a model.
 * Contract: never throws; a message without media has none.
 */
export function telegramAttachmentsOf(message: Message): InboundAttachment[] {
  const attachments: InboundAttachment[] = [];
  const photo = largestPhoto(message.photo);
  if (photo !== undefined) attachments.push(attachment(photo, "photo.jpg", "image", "image/jpeg"));
  if (message.voice !== undefined) {
    attachments.push(attachment(message.voice, "voice.ogg", "voice", message.voice.mime_type ?? "audio/ogg"));
  }
  if (message.audio !== undefined) {
    const mime = message.audio.mime_type ?? "audio/mpeg";
    attachments.push(
      attachment(message.audio, message.audio.file_name ?? `audio.${extensionOf(mime, "mp3")}`, "audio", mime),
    );
  }
  if (message.video !== undefined) {
    const mime = message.video.mime_type ?? "video/mp4";
    attachments.push(
      attachment(message.video, message.video.file_name ?? `video.${extensionOf(mime, "mp4")}`, "video", mime),
    );
  }
  if (message.video_note !== undefined) {
    attachments.push(attachment(message.video_note, "video-note.mp4", "video", "video/mp4"));
  }
  // An animation (a GIF, sent as MP4) comes with a `document` copy of itself: one attachment, not two.
  if (message.animation !== undefined) {
    const mime = message.animation.mime_type ?? "video/mp4";
    attachments.push(attachment(message.animation, message.animation.file_name ?? "animation.mp4", "video", mime));
  } else if (message.document !== undefined) {
    const mime = message.document.mime_type;
    const kind: AttachmentKind = mime?.startsWith("image/") === true ? "image" : "document";
    attachments.push(attachment(message.document, message.document.file_name ?? "document", kind, mime));
  }
  const sticker = message.sticker;
  if (sticker !== undefined) {
    if (sticker.is_animated) attachments.push(attachment(sticker, "sticker.tgs", "sticker", "application/x-tgsticker"));
    else if (sticker.is_video) attachments.push(attachment(sticker, "sticker.webm", "sticker", "video/webm"));
    else attachments.push(attachment(sticker, "sticker.webp", "image", "image/webp"));
  }
  return attachments;
}

function largestPhoto<T extends TelegramFileFields & { width: number; height: number }>(
  sizes: readonly T[] | undefined,
): T | undefined {
  let best: T | undefined;
  for (const size of sizes ?? []) {
    if (best === undefined || size.width * size.height > best.width * best.height) best = size;
  }
  return best;
}

function attachment(
  file: TelegramFileFields,
  name: string,
  kind: AttachmentKind,
  mimeType: string | undefined,
): InboundAttachment {
  return {
    id: file.file_id,
    uniqueId: file.file_unique_id,
    name,
    kind,
    ...(mimeType === undefined ? {} : { mimeType }),
    ...(file.file_size === undefined ? {} : { sizeBytes: file.file_size }),
  };
}

function extensionOf(mimeType: string, fallback: string): string {
  const subtype = /^[a-z]+\/(?:x-)?([a-z0-9]+)$/i.exec(mimeType)?.[1]?.toLowerCase();
  if (subtype === undefined) return fallback;
  return subtype === "mpeg" ? "mp3" : subtype === "quicktime" ? "mov" : subtype;
}
