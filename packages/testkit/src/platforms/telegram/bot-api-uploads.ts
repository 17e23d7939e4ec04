import type { IncomingMessage } from "node:http";
import { imageDimensions } from "../shared/image-dimensions.js";
import { extensionOf, mimeTypeOfName } from "../shared/mime-by-name.js";
import { parseMultipart } from "../shared/multipart-body.js";
import { BotApiError, intParam, type MethodHandler, renderText, replyTarget, requireChat } from "./bot-api-methods.js";
import type { TgFile } from "./telegram-files.js";
import type { TgChat, TgMessage } from "./telegram-types.js";
import type { TelegramBotState, TelegramWorld } from "./telegram-world.js";

/** A file part of a `multipart/form-data` Bot API call, as the method's parameter (`photo`, `document`). */
export class TelegramUpload {
  constructor(
    readonly bytes: Uint8Array,
    readonly filename: string,
  ) {}
}

/** What Telegram accepts in one upload. */
export interface TelegramUploadLimits {
  /** The largest photo `sendPhoto` takes; a larger one is refused 400. Default 10 MiB (Telegram's 10 MB). */
  readonly photoBytes?: number;
  /** The largest file of any upload; a larger one is refused 413 "Request Entity Too Large". Default 50 MiB. */
  readonly fileBytes?: number;
}

/** A file a bot sent with `sendPhoto` or `sendDocument`: the bytes as they arrived and the message that carries it. */
export interface TelegramSentFile {
  readonly method: "sendPhoto" | "sendDocument";
  readonly chatId: number;
  readonly messageId: number;
  /** The name of the uploaded part (grammy's `InputFile` filename). */
  readonly fileName: string;
  readonly bytes: Uint8Array;
  readonly message: TgMessage;
}

/** A Bot API call's parameters, with each `attach://<part>` (and each file part named after a parameter) resolved. */
export interface TelegramUploadCall {
  /** The text fields as sent (`attach://…` left as is), for the call log. */
  readonly body: Record<string, unknown>;
  readonly params: Record<string, unknown>;
}

/**
 * Reads a `multipart/form-data` Bot API call (grammy sends one for an `InputFile`): its fields, JSON ones
 * (`reply_parameters`, `reply_markup`) parsed, and its file parts as TelegramUploads.
 * Contract: undefined for a body that is not multipart.
 */
export function readTelegramUpload(req: IncomingMessage, raw: Buffer): TelegramUploadCall | undefined {
  const multipart = parseMultipart(req.headers["content-type"], raw);
  if (multipart === undefined) return undefined;
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(multipart.fields)) body[key] = jsonOrText(value);
  const parts = new Map(multipart.files.map((part) => [part.name, part]));
  const params: Record<string, unknown> = { ...body };
  for (const [key, value] of Object.entries(body)) {
    const attached = typeof value === "string" && value.startsWith("attach://") ? parts.get(value.slice(9)) : undefined;
    if (attached) params[key] = new TelegramUpload(new Uint8Array(attached.data), attached.filename ?? key);
  }
  for (const part of multipart.files) {
    if (!(part.name in params)) params[part.name] = new TelegramUpload(new Uint8Array(part.data), part.filename ?? "");
  }
  return { body, params };
}

const MAX_CAPTION = 1024;
const MIB = 1024 * 1024;

/**
 * `sendPhoto` and `sendDocument` as Telegram answers them (upload, or a `file_id` it issued), and the files sent
 * through them. Contract: a photo over `photoBytes` is refused 400, any file over `fileBytes` 413, a photo that is no
 * image 400 `IMAGE_PROCESS_FAILED`; the file is then served by `getFile` and the file route like one a person sent.
 */
export function telegramUploads(limits: TelegramUploadLimits = {}): {
  readonly methods: Readonly<Record<string, MethodHandler>>;
  sent(): TelegramSentFile[];
} {
  const photoBytes = limits.photoBytes ?? 10 * MIB;
  const fileBytes = limits.fileBytes ?? 50 * MIB;
  const sent: TelegramSentFile[] = [];

  const upload = (world: TelegramWorld, params: Record<string, unknown>, key: "photo" | "document") => {
    const value = params[key];
    if (value instanceof TelegramUpload) {
      // The real API answers an upload past its limit with 413 and this JSON body.
      if (value.bytes.byteLength > fileBytes) throw new BotApiError(413, "Request Entity Too Large");
      return value;
    }
    if (typeof value !== "string" || value === "") {
      throw new BotApiError(400, `Bad Request: there is no ${key} in the request`);
    }
    // A file_id the fake issued is sent again without an upload; it serves no URLs.
    const known = world.files.get(value);
    if (known === undefined) throw new BotApiError(400, "Bad Request: wrong file identifier/HTTP URL specified");
    return known;
  };

  const record = (method: TelegramSentFile["method"], message: TgMessage, file: TelegramUpload | TgFile): TgMessage => {
    if (file instanceof TelegramUpload) {
      sent.push({
        method,
        chatId: message.chat.id,
        messageId: message.message_id,
        fileName: file.filename,
        bytes: file.bytes,
        message,
      });
    }
    return message;
  };

  const sendPhoto: MethodHandler = (w, bot, params) => {
    const chat = requireChat(w, params);
    const file = upload(w, params, "photo");
    if (file instanceof TelegramUpload) {
      // Telegram's MTProto answer for a photo over 10 MB, passed on by the Bot API.
      if (file.bytes.byteLength > photoBytes) throw new BotApiError(400, "Bad Request: PHOTO_SAVE_FILE_INVALID");
      const image = imageDimensions(file.bytes);
      if (image === undefined) throw new BotApiError(400, "Bad Request: IMAGE_PROCESS_FAILED");
      const message = mediaMessage(w, bot, chat, params);
      const stored = w.files.add(file.bytes, "photos", "jpg");
      message.photo = [{ ...fileIds(stored), width: image.width, height: image.height }];
      return record("sendPhoto", w.store(message), file);
    }
    const message = mediaMessage(w, bot, chat, params);
    message.photo = [{ ...fileIds(file), width: 0, height: 0 }];
    return record("sendPhoto", w.store(message), file);
  };

  const sendDocument: MethodHandler = (w, bot, params) => {
    const chat = requireChat(w, params);
    const file = upload(w, params, "document");
    const message = mediaMessage(w, bot, chat, params);
    message.document = file instanceof TelegramUpload ? uploadedDocument(w, file) : { ...fileIds(file) };
    return record("sendDocument", w.store(message), file);
  };

  return { methods: { sendPhoto, sendDocument }, sent: () => [...sent] };
}

function fileIds(file: TgFile): { file_id: string; file_unique_id: string; file_size: number } {
  return { file_id: file.file_id, file_unique_id: file.file_unique_id, file_size: file.file_size };
}

function uploadedDocument(world: TelegramWorld, file: TelegramUpload): NonNullable<TgMessage["document"]> {
  const extension = extensionOf(file.filename);
  const stored = world.files.add(file.bytes, "documents", extension ?? "bin");
  const document: NonNullable<TgMessage["document"]> = {
    ...fileIds(stored),
    // Telegram tells the type from the name: grammy sends every file part as application/octet-stream.
    mime_type: mimeTypeOfName(file.filename),
  };
  if (file.filename !== "") document.file_name = file.filename;
  return document;
}

/** A bot's media message without its media: thread, reply and caption as `sendMessage` treats them. */
function mediaMessage(
  world: TelegramWorld,
  bot: TelegramBotState,
  chat: TgChat,
  params: Record<string, unknown>,
): TgMessage {
  const replyTo = replyTarget(world, chat.id, params);
  const threadId = intParam(params, "message_thread_id") ?? replyTo?.message_thread_id;
  const caption =
    typeof params.caption === "string" && params.caption !== "" ? renderText(params, "caption") : undefined;
  if (caption !== undefined && caption.text.length > MAX_CAPTION) {
    throw new BotApiError(400, "Bad Request: message caption is too long");
  }
  const message: TgMessage = {
    message_id: world.nextMessageId(chat.id),
    from: bot.account.user,
    chat,
    date: Math.floor(Date.now() / 1000),
  };
  if (threadId !== undefined && chat.is_forum) {
    message.message_thread_id = threadId;
    message.is_topic_message = true;
  }
  if (replyTo) message.reply_to_message = replyTo;
  if (caption !== undefined) message.caption = caption.text;
  if (caption?.entities) message.caption_entities = caption.entities;
  if (params.reply_markup !== undefined) message.reply_markup = params.reply_markup;
  return message;
}

function jsonOrText(value: string): unknown {
  if (!/^\s*[[{]/.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
