import { asRecord } from "../shared/request-body.js";
import { HtmlEntityError, parseTelegramHtml } from "./html-entities.js";
import type { TgEntity, TgMessage } from "./telegram-types.js";
import type { TelegramBotState, TelegramWorld } from "./telegram-world.js";

/** A Bot API error answer: `{ ok: false, error_code, description }`. */
export class BotApiError extends Error {
  override readonly name = "BotApiError";
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly parameters?: Record<string, unknown>,
  ) {
    super(description);
  }
}

/** Result of one method: a value for `{ ok: true, result }`, or a promise of one (long poll). */
type MethodResult = unknown;
export type MethodHandler = (
  world: TelegramWorld,
  bot: TelegramBotState,
  params: Record<string, unknown>,
) => MethodResult;

const MAX_TEXT = 4096;

export function intParam(params: Record<string, unknown>, key: string): number | undefined {
  const value = params[key];
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

export function requireChat(world: TelegramWorld, params: Record<string, unknown>) {
  const chatId = intParam(params, "chat_id");
  if (chatId === undefined) throw new BotApiError(400, "Bad Request: chat_id is empty");
  const chat = world.chats.get(chatId);
  if (!chat) throw new BotApiError(400, "Bad Request: chat not found");
  return chat;
}

/**
 * What the user will see: the text after `parse_mode` (HTML is parsed into entities; other modes
 * and explicit `entities` are kept as sent), checked for emptiness and length like Telegram does.
 */
export function renderText(params: Record<string, unknown>, key = "text"): { text: string; entities?: TgEntity[] } {
  const raw = params[key];
  if (typeof raw !== "string" || raw.length === 0) throw new BotApiError(400, "Bad Request: message text is empty");
  let rendered: { text: string; entities?: TgEntity[] } = { text: raw };
  if (params.parse_mode === "HTML") {
    try {
      rendered = parseTelegramHtml(raw);
    } catch (error) {
      if (error instanceof HtmlEntityError) {
        throw new BotApiError(400, `Bad Request: can't parse entities: ${error.message}`);
      }
      throw error;
    }
  } else if (Array.isArray(params.entities)) {
    rendered = { text: raw, entities: params.entities as TgEntity[] };
  }
  if (rendered.text.trim().length === 0) throw new BotApiError(400, "Bad Request: message text is empty");
  if (rendered.text.length > MAX_TEXT) throw new BotApiError(400, "Bad Request: message is too long");
  if (rendered.entities?.length === 0) return { text: rendered.text };
  return rendered;
}

export function replyTarget(
  world: TelegramWorld,
  chatId: number,
  params: Record<string, unknown>,
): TgMessage | undefined {
  const replyParameters = asRecord(params.reply_parameters);
  const id = intParam(replyParameters, "message_id") ?? intParam(params, "reply_to_message_id");
  if (id === undefined) return undefined;
  const target = world.findMessage(chatId, id);
  if (!target && replyParameters.allow_sending_without_reply !== true) {
    throw new BotApiError(400, "Bad Request: message to be replied not found");
  }
  return target;
}

function sendMessage(world: TelegramWorld, bot: TelegramBotState, params: Record<string, unknown>): TgMessage {
  const chat = requireChat(world, params);
  const rendered = renderText(params);
  const replyTo = replyTarget(world, chat.id, params);
  const threadId = intParam(params, "message_thread_id") ?? replyTo?.message_thread_id;
  const message: TgMessage = {
    message_id: world.nextMessageId(chat.id),
    from: bot.account.user,
    chat,
    date: Math.floor(Date.now() / 1000),
    text: rendered.text,
  };
  if (threadId !== undefined && chat.is_forum) {
    message.message_thread_id = threadId;
    message.is_topic_message = true;
  }
  if (replyTo) message.reply_to_message = replyTo;
  if (rendered.entities) message.entities = rendered.entities;
  if (params.reply_markup !== undefined) message.reply_markup = params.reply_markup;
  return world.store(message);
}

function editMessageText(world: TelegramWorld, bot: TelegramBotState, params: Record<string, unknown>): TgMessage {
  const chat = requireChat(world, params);
  const rendered = renderText(params);
  const messageId = intParam(params, "message_id");
  const message = messageId === undefined ? undefined : world.findMessage(chat.id, messageId);
  if (!message) throw new BotApiError(400, "Bad Request: message to edit not found");
  if (message.from?.id !== bot.account.user.id) throw new BotApiError(400, "Bad Request: message can't be edited");
  const sameEntities = JSON.stringify(message.entities ?? []) === JSON.stringify(rendered.entities ?? []);
  // As on Telegram, an edit without reply_markup removes the inline keyboard.
  const sameMarkup = JSON.stringify(message.reply_markup ?? null) === JSON.stringify(params.reply_markup ?? null);
  if (message.text === rendered.text && sameEntities && sameMarkup) {
    throw new BotApiError(
      400,
      "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
  }
  message.text = rendered.text;
  if (rendered.entities) message.entities = rendered.entities;
  else delete message.entities;
  message.edit_date = Math.floor(Date.now() / 1000);
  if (params.reply_markup !== undefined) message.reply_markup = params.reply_markup;
  else delete message.reply_markup;
  return message;
}

function deleteMessage(world: TelegramWorld, _bot: TelegramBotState, params: Record<string, unknown>): true {
  const chat = requireChat(world, params);
  const messageId = intParam(params, "message_id");
  if (messageId === undefined || !world.messages.remove(String(chat.id), String(messageId))) {
    throw new BotApiError(400, "Bad Request: message to delete not found");
  }
  return true;
}

function getUpdates(_world: TelegramWorld, bot: TelegramBotState, params: Record<string, unknown>): Promise<unknown> {
  if (bot.webhook) {
    throw new BotApiError(
      409,
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );
  }
  const timeout = Math.min(intParam(params, "timeout") ?? 0, 50);
  return bot.queue.poll(intParam(params, "offset"), intParam(params, "limit") ?? 100, timeout);
}

function setWebhook(world: TelegramWorld, bot: TelegramBotState, params: Record<string, unknown>): true {
  const url = typeof params.url === "string" ? params.url : "";
  if (url === "") {
    world.setWebhook(bot, undefined, params.drop_pending_updates === true);
    return true;
  }
  if (!/^https?:\/\//.test(url)) throw new BotApiError(400, "Bad Request: bad webhook: invalid webhook URL specified");
  const secret = typeof params.secret_token === "string" ? params.secret_token : undefined;
  if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
    throw new BotApiError(400, "Bad Request: bad webhook: secret token contains unallowed characters");
  }
  world.setWebhook(
    bot,
    { url, secretToken: secret, maxConnections: intParam(params, "max_connections") ?? 40 },
    params.drop_pending_updates === true,
  );
  return true;
}

const ok = (): true => true;

/** Bot API methods the fake implements, by name. */
export const botApiMethods: Readonly<Record<string, MethodHandler>> = {
  getMe: (_world, bot) => bot.account.user,
  logOut: ok,
  close: ok,
  getUpdates,
  setWebhook,
  deleteWebhook: (world, bot, params) => {
    world.setWebhook(bot, undefined, params.drop_pending_updates === true);
    return true;
  },
  getWebhookInfo: (_world, bot) => ({
    url: bot.webhook?.target.url ?? "",
    has_custom_certificate: false,
    pending_update_count: bot.queue.pendingCount,
    max_connections: bot.webhook?.target.maxConnections,
  }),
  getFile: (world, _bot, params) => {
    const fileId = typeof params.file_id === "string" ? params.file_id : "";
    const file = world.files.get(fileId);
    if (file === undefined) throw new BotApiError(400, "Bad Request: invalid file_id");
    return file;
  },
  sendMessage,
  editMessageText,
  deleteMessage,
  sendMessageDraft: (world, _bot, params) => {
    const chat = requireChat(world, params);
    if (chat.type !== "private")
      throw new BotApiError(400, "Bad Request: message drafts are only supported in private chats");
    if (!intParam(params, "draft_id")) throw new BotApiError(400, "Bad Request: draft_id must be non-zero");
    renderText(params);
    return true;
  },
  sendChatAction: (world, _bot, params) => {
    requireChat(world, params);
    return true;
  },
  setMessageReaction: (world, _bot, params) => {
    requireChat(world, params);
    return true;
  },
  answerCallbackQuery: ok,
  setMyCommands: (_world, bot, params) => {
    bot.commands = Array.isArray(params.commands) ? params.commands : [];
    return true;
  },
  getMyCommands: (_world, bot) => bot.commands,
  deleteMyCommands: (_world, bot) => {
    bot.commands = [];
    return true;
  },
  getChat: (world, _bot, params) => requireChat(world, params),
  getChatMember: (world, bot, params) => {
    const chat = requireChat(world, params);
    const userId = intParam(params, "user_id");
    if (userId === bot.account.user.id)
      return { status: "administrator", user: bot.account.user, can_be_edited: false };
    if (userId === undefined) throw new BotApiError(400, "Bad Request: user_id is empty");
    const user =
      chat.type === "private" && chat.id === userId
        ? { id: userId, is_bot: false, first_name: chat.first_name ?? "" }
        : { id: userId, is_bot: false, first_name: String(userId) };
    return { status: "member", user };
  },
};
