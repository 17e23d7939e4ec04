import type { OutboundFile, SendTarget } from "@chorus/channel";
import { ChannelError } from "@chorus/channel";
import type { Bot } from "grammy";
import type { Message } from "grammy/types";

/** The largest file a bot uploads through the Bot API (sendDocument): 50 MB. */
export const TELEGRAM_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** The largest photo sendPhoto takes: 10 MB; a larger image goes as a document. */
export const TELEGRAM_MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** Telegram's limit on a caption, in characters after entity parsing (plain here). */
const MAX_CAPTION = 1024;
/** The image types Telegram shows as a photo; anything else (GIF, SVG, HEIC …) goes as a document. */
const PHOTO_TYPES = new Set(["image/jpeg", "image/png", "image/webp"]);

/** Telegram's refusals of an image as a photo (size in pixels, format): the same file still goes as a document. */
const NOT_A_PHOTO = /PHOTO_INVALID_DIMENSIONS|PHOTO_SAVE_FILE_INVALID|IMAGE_PROCESS_FAILED|PHOTO_EXT_INVALID/i;

/**
 * Uploads `file` to the chat with grammy: sendPhoto when it is meant as a photo and Telegram takes it as one (a JPEG,
 * PNG or WebP up to 10 MB; one it refuses for its pixel size or format goes again as a document), else sendDocument
 * with its name; the caption plain, in the target's topic, as a reply where asked.
 * Contract: a file over TELEGRAM_MAX_UPLOAD_BYTES is refused with ChannelError "too-long" before any request; a
 * caption over 1 024 characters is cut to fit; Bot API failures reject as grammy threw them.
 */
export async function sendTelegramFile(bot: Bot, target: SendTarget, file: OutboundFile): Promise<Message> {
  if (file.bytes.byteLength > TELEGRAM_MAX_UPLOAD_BYTES) {
    throw new ChannelError(
      "too-long",
      `telegram sendFile: ${file.name} is ${file.bytes.byteLength} bytes, over Telegram's ${TELEGRAM_MAX_UPLOAD_BYTES}`,
    );
  }
  const { InputFile } = await import("grammy");
  const chatId = /^-?\d+$/.test(target.chatId) ? Number(target.chatId) : target.chatId;
  const other = fileCallOptions(target, file.caption);
  const asDocument = () => bot.api.sendDocument(chatId, new InputFile(file.bytes, file.name), other);
  if (!sendsAsPhoto(file)) return asDocument();
  try {
    return await bot.api.sendPhoto(chatId, new InputFile(file.bytes, file.name), other);
  } catch (error) {
    if (!refusedAsPhoto(error)) throw error;
    return asDocument();
  }
}

/** Whether `file` goes through sendPhoto. */
export function sendsAsPhoto(file: OutboundFile): boolean {
  return (
    file.asPhoto && PHOTO_TYPES.has(file.mimeType.toLowerCase()) && file.bytes.byteLength <= TELEGRAM_MAX_PHOTO_BYTES
  );
}

/** caption, message_thread_id and reply_parameters of a sendPhoto / sendDocument. */
function fileCallOptions(target: SendTarget, caption: string | undefined): Record<string, unknown> {
  const other: Record<string, unknown> = {};
  if (caption !== undefined && caption !== "") other.caption = fitCaption(caption);
  if (target.threadId !== undefined) other.message_thread_id = Number(target.threadId);
  // A button press's `callback:…` id names no message to reply to.
  if (target.replyToMessageId !== undefined && /^\d+$/.test(target.replyToMessageId)) {
    other.reply_parameters = { message_id: Number(target.replyToMessageId), allow_sending_without_reply: true };
  }
  return other;
}

/** The caption cut to Telegram's 1 024 characters, never inside a surrogate pair, with an ellipsis when cut. */
function fitCaption(caption: string): string {
  if (caption.length <= MAX_CAPTION) return caption;
  let end = MAX_CAPTION - 1;
  const last = caption.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${caption.slice(0, end)}…`;
}

function refusedAsPhoto(error: unknown): boolean {
  const failure = error as { error_code?: unknown; description?: unknown } | undefined;
  return (
    failure?.error_code === 400 && typeof failure.description === "string" && NOT_A_PHOTO.test(failure.description)
  );
}
