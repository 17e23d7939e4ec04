import type { IncomingMessage, ServerResponse } from "node:http";
import { CallLog, type RecordedCall } from "../shared/call-log.js";
import type { Delivery } from "../shared/delivery.js";
import { FaultPlan } from "../shared/fault-plan.js";
import { listenHttp, sendJson } from "../shared/http-listener.js";
import { asRecord, parseRequestBody } from "../shared/request-body.js";
import { BotApiError, botApiMethods } from "./bot-api-methods.js";
import { readTelegramUpload, telegramUploads } from "./bot-api-uploads.js";
import type { TgFile } from "./telegram-files.js";
import type { FakeTelegram, FakeTelegramOptions, TelegramBotSpec } from "./telegram-handle.js";
import type { TelegramBotAccount, TgChat, TgEntity, TgMediaKind, TgMessage, TgUser } from "./telegram-types.js";
import { TelegramWorld } from "./telegram-world.js";

const DEFAULT_USER: TgUser = { id: 1001, is_bot: false, first_name: "Alice", username: "alice", language_code: "en" };
const OTHER_BOT: TgUser = { id: 2002, is_bot: true, first_name: "Other Bot", username: "other_bot" };
const TOKEN_PATH = /^\/bot([^/]+)\/([A-Za-z]+)$/;
/** Where Telegram serves a file `getFile` described: `/file/bot<TOKEN>/<file_path>`. */
const FILE_PATH = /^\/file\/bot([^/]+)\/(.+)$/;

function botAccount(spec: TelegramBotSpec, index: number): TelegramBotAccount {
  const token = spec.token ?? `${7_000_000_000 + index}:AAFake${index}TelegramTokenForTestsOnly000000`;
  const id = Number(token.split(":")[0]);
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new TypeError("a Telegram bot token must look like <numeric bot id>:<secret>");
  }
  const username = spec.username ?? (index === 0 ? "chorus_test_bot" : `chorus_test_${index}_bot`);
  return { token, user: { id, is_bot: true, first_name: spec.firstName ?? username, username } };
}

function privateChat(user: TgUser): TgChat {
  const chat: TgChat = { id: user.id, type: "private", first_name: user.first_name };
  if (user.username !== undefined) chat.username = user.username;
  return chat;
}

/**
 * Starts a fake Telegram Bot API on 127.0.0.1 (`/bot<TOKEN>/<method>`, JSON or form bodies,
 * `{ ok, result }` answers), with long polling and webhook delivery.
 * Contract: grammy works against it unmodified with `client.apiRoot = fake.apiRoot`.
 */
export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const accounts = (options.bots ?? [{}]).map(botAccount);
  const world = new TelegramWorld(options.webhookRetry);
  for (const account of accounts) world.addBot(account);
  const group = world.addChat({ id: -1001000000001, type: "supergroup", title: "Fake Group" });
  const forum = world.addChat({ id: -1001000000002, type: "supergroup", title: "Fake Forum", is_forum: true });
  const log = new CallLog(options.callLogLimit);
  const faults = new FaultPlan();
  const uploads = telegramUploads(options.uploadLimits);
  const firstAccount = accounts[0] as TelegramBotAccount;

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const fileMatch = FILE_PATH.exec(path);
    if (fileMatch !== null) {
      serveFile(res, world, fileMatch[1] ?? "", decodeURIComponent(fileMatch[2] ?? ""));
      return;
    }
    const match = TOKEN_PATH.exec(path);
    if (!match) {
      sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found" });
      return;
    }
    const [, token = "", method = ""] = match;
    // A file upload (multipart/form-data) has its `attach://` parts resolved for the method.
    const upload = readTelegramUpload(req, raw);
    const params = upload?.params ?? asRecord(parseRequestBody(req, raw));
    const bot = world.bots.get(token);
    const call: RecordedCall = {
      method,
      httpMethod: req.method ?? "POST",
      path: `/bot<token>/${method}`,
      params: {},
      body: upload?.body ?? params,
      botId: bot ? String(bot.account.user.id) : undefined,
      status: 0,
      at: Date.now(),
    };
    log.record(call);
    const answer = (status: number, body: unknown): void => {
      call.status = status;
      sendJson(res, status, body);
    };
    if (!bot) return answer(401, { ok: false, error_code: 401, description: "Unauthorized" });
    const handler = botApiMethods[method] ?? uploads.methods[method];
    if (!handler) return answer(404, { ok: false, error_code: 404, description: "Not Found: method not found" });
    const fault = faults.take(method);
    if (fault) {
      if (fault.status === 429) {
        const retryAfter = Math.ceil(fault.retryAfterSeconds ?? 1);
        return answer(429, {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${retryAfter}`,
          parameters: { retry_after: retryAfter },
        });
      }
      return answer(fault.status, { ok: false, error_code: fault.status, description: "Internal Server Error" });
    }
    try {
      const result = await handler(world, bot, params);
      answer(200, { ok: true, result });
    } catch (error) {
      if (!(error instanceof BotApiError)) throw error;
      const body: Record<string, unknown> = { ok: false, error_code: error.errorCode, description: error.description };
      if (error.parameters) body.parameters = error.parameters;
      answer(error.errorCode, body);
    }
  };

  const listener = await listenHttp(handle);

  const botsFor = (token: string | undefined, everyone: boolean) => {
    if (token !== undefined) {
      const bot = world.bots.get(token);
      if (!bot) throw new TypeError("unknown bot token for this fake Telegram");
      return [bot];
    }
    return everyone ? [...world.bots.values()] : [world.bots.get(firstAccount.token)!];
  };

  const deliverMessage = async (
    message: TgMessage,
    token: string | undefined,
    everyone: boolean,
  ): Promise<Delivery<TgMessage>> => {
    const results = await Promise.all(botsFor(token, everyone).map((bot) => world.deliver(bot, { message })));
    const failed = results.find((r) => !r.ok);
    if (failed && !failed.ok) {
      return failed.status === undefined
        ? { ok: false, item: message, reason: failed.reason }
        : { ok: false, item: message, reason: failed.reason, status: failed.status };
    }
    const status = results[0]?.status;
    return status === undefined ? { ok: true, item: message } : { ok: true, item: message, status };
  };

  const mentionOf = (token: string | undefined): string => {
    const account = token === undefined ? firstAccount : world.bots.get(token)?.account;
    if (!account) throw new TypeError("unknown bot token for this fake Telegram");
    return `@${account.user.username ?? ""}`;
  };

  return {
    apiRoot: listener.origin,
    token: firstAccount.token,
    bots: accounts,
    user: DEFAULT_USER,
    otherBot: OTHER_BOT,
    group,
    forum,
    calls: log.calls,
    callsTo: (method) => log.callsTo(method),
    waitFor: (predicate, timeoutMs) => log.waitFor(predicate, timeoutMs),
    waitForCall: (method, count = 1, timeoutMs) => {
      let seen = 0;
      return log.waitFor((call) => call.method === method && ++seen === count, timeoutMs);
    },
    failNext: (fault) => faults.add(fault),
    injectDm: (inbound) => {
      const from = inbound.from ?? DEFAULT_USER;
      const message = world.inboundMessage(privateChat(from), from, { text: inbound.text });
      return deliverMessage(message, inbound.bot, false);
    },
    injectGroupMessage: (inbound) => {
      const message = world.inboundMessage(inbound.chat ?? group, inbound.from ?? DEFAULT_USER, { text: inbound.text });
      return deliverMessage(message, inbound.bot, true);
    },
    injectMention: (inbound) => {
      const mention = mentionOf(inbound.bot);
      const entities: TgEntity[] = [{ type: "mention", offset: 0, length: mention.length }];
      const message = world.inboundMessage(inbound.chat ?? group, inbound.from ?? DEFAULT_USER, {
        text: `${mention} ${inbound.text}`,
        entities,
      });
      return deliverMessage(message, inbound.bot, true);
    },
    injectReply: (inbound) => {
      const fields: Partial<TgMessage> = { text: inbound.text, reply_to_message: inbound.to };
      if (inbound.to.message_thread_id !== undefined) {
        fields.message_thread_id = inbound.to.message_thread_id;
        fields.is_topic_message = true;
      }
      const message = world.inboundMessage(inbound.to.chat, inbound.from ?? DEFAULT_USER, fields);
      return deliverMessage(message, inbound.bot, inbound.to.chat.type !== "private");
    },
    injectTopicMessage: (inbound) => {
      const message = world.inboundMessage(forum, inbound.from ?? DEFAULT_USER, {
        text: inbound.text,
        message_thread_id: inbound.threadId,
        is_topic_message: true,
      });
      return deliverMessage(message, inbound.bot, true);
    },
    injectBotMessage: (inbound) => {
      const message = world.inboundMessage(inbound.chat ?? group, OTHER_BOT, { text: inbound.text });
      return deliverMessage(message, inbound.bot, true);
    },
    injectCommand: (inbound) => {
      const from = inbound.from ?? DEFAULT_USER;
      const chat = inbound.chat ?? privateChat(from);
      const command = `/${inbound.command.replace(/^\//, "")}`;
      const text = inbound.args ? `${command} ${inbound.args}` : command;
      const message = world.inboundMessage(chat, from, {
        text,
        entities: [{ type: "bot_command", offset: 0, length: command.length }],
      });
      return deliverMessage(message, inbound.bot, chat.type !== "private");
    },
    injectMedia: (inbound) => {
      const from = inbound.from ?? DEFAULT_USER;
      const chat = inbound.chat ?? privateChat(from);
      const file =
        inbound.bytes === undefined ? undefined : world.files.add(inbound.bytes, ...FILE_PLACES[inbound.kind]);
      const message = world.inboundMessage(chat, from, {
        ...mediaFields(inbound.kind, ++mediaCount, file, inbound.fileName, inbound.mimeType, inbound.stickerFormat),
        ...(inbound.caption === undefined ? {} : { caption: inbound.caption }),
        ...(inbound.mediaGroupId === undefined ? {} : { media_group_id: inbound.mediaGroupId }),
      });
      return deliverMessage(message, inbound.bot, chat.type !== "private");
    },
    injectAlbum: (inbound) => {
      const from = inbound.from ?? DEFAULT_USER;
      const chat = inbound.chat ?? privateChat(from);
      const mediaGroupId = inbound.mediaGroupId ?? `${13_000_000_000_000_000 + ++mediaCount * 1_000}`;
      // Every item is handed over before any answer is awaited, as Telegram sends an album's updates together.
      const messages = inbound.items.map((item) => {
        const file = item.bytes === undefined ? undefined : world.files.add(item.bytes, ...FILE_PLACES[item.kind]);
        return world.inboundMessage(chat, from, {
          ...mediaFields(item.kind, ++mediaCount, file, item.fileName, item.mimeType),
          ...(item.caption === undefined ? {} : { caption: item.caption }),
          media_group_id: mediaGroupId,
        });
      });
      return Promise.all(messages.map((message) => deliverMessage(message, inbound.bot, chat.type !== "private")));
    },
    injectCallbackQuery: (inbound) => {
      const [bot] = botsFor(inbound.bot, false);
      const from = inbound.from ?? DEFAULT_USER;
      return world.deliver(bot!, {
        callback_query: {
          id: `${Date.now()}${Math.floor(Math.random() * 1e6)}`,
          from,
          chat_instance: String(inbound.message.chat.id),
          data: inbound.data,
          message: inbound.message,
        },
      });
    },
    injectUpdate: (token, fields) => {
      const [bot] = botsFor(token, false);
      return world.deliver(bot!, fields);
    },
    redeliver: (token, count) => world.bots.get(token)?.queue.unconfirm(count) ?? 0,
    conversation: (chatId) => world.messages.history(String(chatId)),
    sentFiles: () => uploads.sent(),
    close: async () => {
      world.close();
      log.close();
      await listener.close();
    },
  };
}

let mediaCount = 0;

/** Where Telegram keeps each kind of file, and its usual extension. */
const FILE_PLACES: Readonly<Record<TgMediaKind, readonly [string, string]>> = {
  photo: ["photos", "jpg"],
  voice: ["voice", "oga"],
  sticker: ["stickers", "webp"],
  document: ["documents", "bin"],
  audio: ["music", "mp3"],
  video: ["videos", "mp4"],
};

/** Answers the file route: the bytes for a known bot and path, else Telegram's 401 or 404. */
function serveFile(res: ServerResponse, world: TelegramWorld, token: string, filePath: string): void {
  if (!world.bots.has(token)) {
    sendJson(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
    return;
  }
  const bytes = world.files.bytesAt(filePath);
  if (bytes === undefined) {
    sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    return;
  }
  res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(bytes.byteLength) });
  res.end(bytes);
}

/**
 * The metadata Telegram sends for a photo, voice note, sticker, document, audio or video (ids unique per call); with a
 * served `file`, its ids and size.
 */
function mediaFields(
  kind: TgMediaKind,
  n: number,
  file?: TgFile,
  fileName?: string,
  mimeType?: string,
  stickerFormat: "static" | "animated" | "video" = "static",
): Partial<TgMessage> {
  const ids =
    file === undefined
      ? { file_id: `fake-${kind}-${n}`, file_unique_id: `u-${kind}-${n}` }
      : { file_id: file.file_id, file_unique_id: file.file_unique_id, file_size: file.file_size };
  switch (kind) {
    case "photo":
      return { photo: [{ ...ids, width: 90, height: 90 }] };
    case "document":
      return {
        document: {
          ...ids,
          ...(fileName === undefined ? {} : { file_name: fileName }),
          ...(mimeType === undefined ? {} : { mime_type: mimeType }),
        },
      };
    case "voice":
      return { voice: { ...ids, duration: 3, mime_type: "audio/ogg" } };
    case "sticker": {
      const format = { is_animated: stickerFormat === "animated", is_video: stickerFormat === "video" };
      return { sticker: { ...ids, type: "regular", width: 512, height: 512, emoji: "👍", ...format } };
    }
    case "audio":
      return {
        audio: {
          ...ids,
          duration: 184,
          ...(fileName === undefined ? {} : { file_name: fileName }),
          mime_type: mimeType ?? "audio/mpeg",
        },
      };
    case "video":
      return { video: { ...ids, duration: 7, width: 640, height: 360, mime_type: mimeType ?? "video/mp4" } };
  }
}
