import { type Agent, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  AttachmentLocation,
  Channel,
  ChannelAccountOptions,
  ChannelCapabilities,
  ChannelStartContext,
  FetchAttachmentOptions,
  FetchedAttachment,
  InboundMessage,
  InboundSink,
  IngressRegistration,
  OutboundFile,
  OutboundMessage,
  SendTarget,
  SentMessage,
} from "@chorus/channel";
import {
  type ChannelError,
  ChannelOptionsError,
  ClientSlot,
  EditBudget,
  inboundDelivery,
  ingressUnitName,
  isMessageNotStored,
  localIngress,
  NATIVE_COMMANDS,
  requireOption,
} from "@chorus/channel";
import type { RunnerHandle } from "@grammyjs/runner";
import type { Bot, Context } from "grammy";
import { runConfirmingAfterStored } from "./confirm-after-stored-runner.js";
import { createConnectionPool, forgetIdleConnectionsOnNetworkError } from "./connection-pool.js";
import { pollingOutageReporter } from "./polling-outage-reporter.js";
import { ALBUM_WAIT_MS, TelegramAlbums } from "./telegram-albums.js";
import { inlineKeyboardOf, normaliseTelegramCallback } from "./telegram-buttons.js";
import { isNotModified, toTelegramChannelError } from "./telegram-errors.js";
import { fetchTelegramAttachment } from "./telegram-fetch-attachment.js";
import { normaliseTelegramAlbum, normaliseTelegramUpdate, type TelegramSelf } from "./telegram-inbound.js";
import { sendTelegramFile, TELEGRAM_MAX_UPLOAD_BYTES } from "./telegram-send-file.js";

/** Where Telegram posts updates in webhook mode. */
export interface TelegramWebhookOptions {
  /** Checked against `X-Telegram-Bot-Api-Secret-Token` on every request (1–256 of A-Z a-z 0-9 _ -). */
  readonly secretToken: string;
  /** Port to listen on; default 0 (any free port). */
  readonly port?: number;
  /** Address to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** The URL Telegram should post to (behind a proxy); default this server's own URL. */
  readonly publicUrl?: string;
}

/** Options of a Telegram bot account (with `accountId`, `onError` and `now` of ChannelAccountOptions). */
export interface TelegramChannelOptions extends ChannelAccountOptions {
  /** `<bot id>:<secret>` from BotFather. Never logged. */
  readonly token: string;
  /** Long polling (default) or webhook. */
  readonly mode?: "polling" | "webhook";
  /** Bot API root without a trailing slash, e.g. a test server's `http://127.0.0.1:PORT`; default Telegram's. */
  readonly apiRoot?: string;
  /** Required in webhook mode. */
  readonly webhook?: TelegramWebhookOptions;
  /** Register the gateway's native commands (/agents /status /new /stop /goal /usage /schedule) with setMyCommands on start. Default true. */
  readonly registerCommands?: boolean;
  /**
   * Seconds one long poll waits for updates (getUpdates `timeout`). Every request gets this plus 10 s to answer before
   * it is given up, so a connection that died silently (no reset, e.g. after a network change) stalls polling that
   * long, not grammy's default 500 s. Default 30.
   */
  readonly longPollSeconds?: number;
  /**
   * Seconds a request gets beyond the long poll's own wait before it is given up (see `longPollSeconds`). Default 10;
   * tests of a dead connection shorten it.
   */
  readonly requestMarginSeconds?: number;
  /** Pause (ms) between failed long polls while Telegram cannot be reached. Default 1000. */
  readonly pollRetryMs?: number;
  /** Longest `retry_after` (seconds) auto-retry waits out before the send fails as rate-limited. Default 60. */
  readonly maxRetryDelaySeconds?: number;
  /**
   * How long (ms) an album (photos/videos sent together: one update per item) waits for more items after its latest
   * one before it is handed on as one message. Default 500.
   */
  readonly albumWaitMs?: number;
}

/** What a Telegram chat allows: 4 096 characters, HTML, about one edit per second per chat. */
export const TELEGRAM_CAPABILITIES: ChannelCapabilities = {
  maxMessageLength: 4096,
  edit: true,
  delete: true,
  typing: true,
  threads: true,
  reactions: true,
  buttons: true,
  markup: "telegram-html",
  editRate: { edits: 1, perMs: 1000 },
  maxUploadBytes: TELEGRAM_MAX_UPLOAD_BYTES,
};

const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

/** Pause between failed long polls (default of `pollRetryMs`). */
const POLL_RETRY_MS = 1000;
/** Time a request gets beyond the long poll's own wait (default of `requestMarginSeconds`). */
const REQUEST_MARGIN_SECONDS = 10;

/**
 * A Telegram bot as a Channel, over grammy (loaded on start): long polling through @grammyjs/runner with updates
 * of one chat/topic handled in order, or a webhook whose secret token is checked; 429s waited out by
 * @grammyjs/auto-retry. When Telegram cannot be reached, calls fail at once with a `network` ChannelError and polling
 * tries again every second, without end; `onError` hears of each polling outage once.
 * Contract: the sink is awaited per update, so one chat's messages reach it in order; send/edit/typing reject
 * with ChannelError; an edit that changes nothing succeeds.
 */
export class TelegramChannel implements Channel {
  readonly id = "telegram";
  readonly accountId: string;
  readonly capabilities = TELEGRAM_CAPABILITIES;

  readonly #options: TelegramChannelOptions;
  readonly #now: () => number;
  readonly #budget: EditBudget;
  readonly #bot = new ClientSlot<Bot>("telegram", toTelegramChannelError);
  #runner: RunnerHandle | undefined;
  #poller: IngressRegistration | undefined;
  #server: Server | undefined;
  #webhookUrl: string | undefined;
  #pool: Agent | undefined;

  constructor(options: TelegramChannelOptions) {
    requireOption("telegram", "accountId", options.accountId);
    requireOption("telegram", "token", options.token);
    const mode = options.mode ?? "polling";
    if (mode !== "polling" && mode !== "webhook") {
      throw new ChannelOptionsError(`telegram channel: mode must be "polling" or "webhook", got "${String(mode)}"`);
    }
    if (mode === "webhook" && !SECRET_TOKEN.test(options.webhook?.secretToken ?? "")) {
      throw new ChannelOptionsError(
        "telegram channel: webhook mode needs webhook.secretToken (1-256 characters of A-Z a-z 0-9 _ -)",
      );
    }
    this.accountId = options.accountId;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#budget = new EditBudget(TELEGRAM_CAPABILITIES.editRate, this.#now);
  }

  /** In webhook mode, once started: the URL this channel's server listens on. */
  get webhookUrl(): string | undefined {
    return this.#webhookUrl;
  }

  /** The bot's numeric user id once started. */
  get botId(): number | undefined {
    return this.#bot.current?.botInfo.id;
  }

  /** In polling mode: whether this instance runs the account's one `getUpdates` loop now (its ingress lease). */
  get polling(): boolean {
    return this.#runner?.isRunning() === true;
  }

  async start(sink: InboundSink, context?: ChannelStartContext): Promise<void> {
    this.#bot.claim();
    const [{ Bot, webhookCallback }, { autoRetry }, runnerModule] = await Promise.all([
      import("grammy"),
      import("@grammyjs/auto-retry"),
      import("@grammyjs/runner"),
    ]);
    const longPollSeconds = this.#options.longPollSeconds ?? 30;
    const timeoutSeconds = longPollSeconds + (this.#options.requestMarginSeconds ?? REQUEST_MARGIN_SECONDS);
    const apiRoot = this.#options.apiRoot ?? "https://api.telegram.org";
    const pool = createConnectionPool(apiRoot);
    this.#pool = pool;
    const bot = new Bot(this.#options.token, {
      client: { apiRoot, timeoutSeconds, baseFetchConfig: { agent: pool, compress: true } },
    });
    this.#bot.hold(bot);
    // An album's items are gathered into one message: its first item goes on in its chat's order, the others wait.
    const albums = new TelegramAlbums(this.#options.albumWaitMs ?? ALBUM_WAIT_MS);
    bot.use(albums.middleware);
    // Updates of one chat (and of one forum topic) are handled one after another; different chats in parallel.
    bot.use(runnerModule.sequentialize(orderKey));
    const deliverInbound = inboundDelivery(sink, this.#options.onError);
    // A webhook update Telegram does not get a 2xx for is sent again: one that could not be stored is refused (5xx)
    // rather than acknowledged. A polled update is confirmed by the next getUpdates, asked once its batch was stored.
    const webhookMode = (this.#options.mode ?? "polling") === "webhook";
    const deliver = (inbound: InboundMessage | undefined): Promise<void> =>
      deliverInbound(inbound === undefined || !webhookMode ? inbound : { ...inbound, platformRedelivers: true });
    bot.on("message", async (ctx) => {
      const album = await albums.gather(ctx.update);
      const self = this.#self();
      if (self === undefined) return deliver(undefined);
      await deliver(
        album === undefined
          ? normaliseTelegramUpdate(ctx.update, self, this.#now())
          : normaliseTelegramAlbum(album, self, this.#now()),
      );
    });
    // An inline button press: answered at once (so the button stops spinning), then handled as a message.
    bot.on("callback_query:data", async (ctx) => {
      await ctx.answerCallbackQuery().catch((error: unknown) => this.#options.onError?.(error));
      const self = this.#self();
      await deliver(self === undefined ? undefined : normaliseTelegramCallback(ctx.update, self, this.#now()));
    });
    bot.catch((error) => this.#options.onError?.(error.error));
    await this.#bot.connect(
      async () => {
        // One getMe, before auto-retry is installed: an unreachable Telegram fails the start at once. `bot.init()` and
        // auto-retry would both retry network errors without end (backing off up to an hour), and a start that hangs
        // holds up the rest of the bot; whoever starts the channel decides when to try again.
        bot.botInfo = await bot.api.getMe();
        // auto-retry waits out 429s only. Network errors and 5xx it would retry without end, backing off up to an hour,
        // so a reply could arrive long after Telegram is back; they go to the caller instead: the outbox retries a send
        // at most a minute apart, and the runner polls again every second.
        bot.api.config.use(
          autoRetry({
            maxRetryAttempts: 8,
            maxDelaySeconds: this.#options.maxRetryDelaySeconds ?? 60,
            rethrowHttpErrors: true,
            rethrowInternalServerErrors: true,
          }),
        );
        bot.api.config.use(pollingOutageReporter(this.#options.onError), forgetIdleConnectionsOnNetworkError(pool));
        if (this.#options.registerCommands ?? true) {
          await bot.api.setMyCommands(NATIVE_COMMANDS.map((c) => ({ command: c.name, description: c.description })));
        }
        const webhook = this.#options.webhook;
        if ((this.#options.mode ?? "polling") === "webhook" && webhook !== undefined) {
          const handler = webhookCallback(bot, "http", { secretToken: webhook.secretToken });
          const server = createServer((req, res) => {
            handler(req, res).catch((error: unknown) => {
              // Not stored (the database away): 503, so Telegram delivers the update again a little later.
              if (!isMessageNotStored(unwrapBotError(error))) this.#options.onError?.(error);
              if (!res.headersSent) res.writeHead(isMessageNotStored(unwrapBotError(error)) ? 503 : 500);
              if (!res.writableEnded) res.end();
            });
          });
          this.#server = server;
          await new Promise<void>((resolve, reject) => {
            server.once("error", reject);
            server.listen(webhook.port ?? 0, webhook.host ?? "127.0.0.1", resolve);
          });
          const { port } = server.address() as AddressInfo;
          this.#webhookUrl = `http://${webhook.host ?? "127.0.0.1"}:${port}/telegram`;
          await bot.api.setWebhook(webhook.publicUrl ?? this.#webhookUrl, { secret_token: webhook.secretToken });
        } else {
          // Telegram allows one getUpdates consumer per token: in a cluster, only the instance holding the token's
          // ingress lease polls; the others take over when it dies (an update fetched twice is stored once, by id).
          const ingress = context?.ingress ?? localIngress;
          this.#poller = await ingress.run(ingressUnitName("telegram", this.#options.token), {
            start: async () => {
              // getUpdates is refused while a webhook is set.
              await bot.api.deleteWebhook();
              // Never give up polling (the runner's default stops after 15 h of failures, and the bot would hear
              // nothing again), and retry at a steady pace instead of a backoff that grows without a cap.
              this.#runner = runConfirmingAfterStored(
                runnerModule,
                bot,
                {
                  fetch: { timeout: longPollSeconds },
                  retryInterval: this.#options.pollRetryMs ?? POLL_RETRY_MS,
                  maxRetryTime: Number.POSITIVE_INFINITY,
                  silent: true,
                },
                albums,
              );
            },
            stop: async () => {
              const runner = this.#runner;
              this.#runner = undefined;
              if (runner?.isRunning()) await runner.stop();
            },
          });
        }
      },
      () => this.stop(),
    );
  }

  async stop(): Promise<void> {
    const poller = this.#poller;
    const server = this.#server;
    this.#poller = undefined;
    this.#server = undefined;
    this.#bot.release();
    this.#webhookUrl = undefined;
    this.#budget.clear();
    const pool = this.#pool;
    this.#pool = undefined;
    await poller?.withdraw();
    if (server !== undefined) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // Its keep-alive connections would otherwise linger until Telegram closes them.
    pool?.destroy();
  }

  async send(target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> {
    const other: Record<string, unknown> = { parse_mode: "HTML", link_preview_options: { is_disabled: true } };
    if (target.threadId !== undefined) other.message_thread_id = Number(target.threadId);
    // A button press's `callback:…` id names no message to reply to.
    if (target.replyToMessageId !== undefined && /^\d+$/.test(target.replyToMessageId)) {
      other.reply_parameters = { message_id: Number(target.replyToMessageId), allow_sending_without_reply: true };
    }
    const keyboard = inlineKeyboardOf(outbound.buttons);
    if (keyboard !== undefined) other.reply_markup = keyboard;
    const sent = await this.#bot.call("send", (bot) =>
      bot.api.sendMessage(chatOf(target.chatId), outbound.text, other),
    );
    const result: SentMessage = { messageId: String(sent.message_id), chatId: target.chatId, sentAt: this.#now() };
    return target.threadId === undefined ? result : { ...result, threadId: target.threadId };
  }

  async edit(message: SentMessage, outbound: OutboundMessage): Promise<void> {
    this.#budget.take(message.chatId);
    const keyboard = inlineKeyboardOf(outbound.buttons);
    try {
      await this.#bot.call("edit", (bot) =>
        bot.api.editMessageText(chatOf(message.chatId), Number(message.messageId), outbound.text, {
          parse_mode: "HTML",
          link_preview_options: { is_disabled: true },
          ...(keyboard === undefined ? {} : { reply_markup: keyboard }),
        }),
      );
    } catch (error) {
      if (!isNotModified((error as ChannelError).cause)) throw error;
    }
  }

  async delete(message: SentMessage): Promise<void> {
    await this.#bot.call("delete", (bot) => bot.api.deleteMessage(chatOf(message.chatId), Number(message.messageId)));
  }

  async typing(target: SendTarget): Promise<void> {
    const other = target.threadId === undefined ? {} : { message_thread_id: Number(target.threadId) };
    await this.#bot.call("typing", (bot) => bot.api.sendChatAction(chatOf(target.chatId), "typing", other));
  }

  /**
   * Downloads a file someone sent (`location.id` is its `file_id`) through `getFile` and the Bot API's file route, from
   * the configured API root only; see `fetchTelegramAttachment`.
   */
  async fetchAttachment(location: AttachmentLocation, options: FetchAttachmentOptions): Promise<FetchedAttachment> {
    return fetchTelegramAttachment(
      {
        apiRoot: this.#options.apiRoot ?? "https://api.telegram.org",
        token: this.#options.token,
        getFile: (fileId, signal) =>
          this.#bot.call("getFile", (bot) => bot.api.getFile(fileId, signal as Parameters<Bot["api"]["getFile"]>[1])),
      },
      location,
      options,
    );
  }

  /** Uploads a photo (sendPhoto) or a document (sendDocument) with its caption; see `sendTelegramFile`. */
  async sendFile(target: SendTarget, file: OutboundFile): Promise<SentMessage> {
    const sent = await this.#bot.call("sendFile", (bot) => sendTelegramFile(bot, target, file));
    const result: SentMessage = { messageId: String(sent.message_id), chatId: target.chatId, sentAt: this.#now() };
    return target.threadId === undefined ? result : { ...result, threadId: target.threadId };
  }

  async react(message: SentMessage, emoji: string): Promise<void> {
    await this.#bot.call("react", (bot) =>
      bot.api.setMessageReaction(chatOf(message.chatId), Number(message.messageId), [
        { type: "emoji", emoji } as never,
      ]),
    );
  }

  #self(): TelegramSelf | undefined {
    const info = this.#bot.current?.botInfo;
    return info === undefined ? undefined : { accountId: this.accountId, botId: info.id, username: info.username };
  }
}

/** grammY wraps a handler's error in a `BotError` (its `error`). */
function unwrapBotError(error: unknown): unknown {
  return error instanceof Error && error.name === "BotError" && "error" in error ? error.error : error;
}

function orderKey(ctx: Context): string | undefined {
  const chat = ctx.chat?.id;
  if (chat === undefined) return undefined;
  const topic = ctx.msg?.is_topic_message === true ? ctx.msg.message_thread_id : undefined;
  return topic === undefined ? String(chat) : `${chat}:${topic}`;
}

function chatOf(chatId: string): number | string {
  return /^-?\d+$/.test(chatId) ? Number(chatId) : chatId;
}
