import type { CallPredicate, RecordedCall } from "../shared/call-log.js";
import type { Delivery } from "../shared/delivery.js";
import type { FaultSpec } from "../shared/fault-plan.js";
import type { TelegramSentFile, TelegramUploadLimits } from "./bot-api-uploads.js";
import type { TelegramBotAccount, TgChat, TgMediaKind, TgMessage, TgUpdate, TgUser } from "./telegram-types.js";
import type { WebhookRetry } from "./webhook-sender.js";

/** A bot account to create on the fake Telegram. */
export interface TelegramBotSpec {
  /** `<numeric id>:<secret>`; generated when omitted. */
  readonly token?: string;
  readonly username?: string;
  readonly firstName?: string;
}

/** Options for `startFakeTelegram`. */
export interface FakeTelegramOptions {
  /** Keep at most this many recorded calls (the oldest half is dropped when full). Default: all. */
  readonly callLogLimit?: number;
  /** Bot accounts, keyed by token. Default: one bot, `chorus_test_bot`. */
  readonly bots?: readonly TelegramBotSpec[];
  /**
   * As Telegram does, post an update the webhook did not answer with a 2xx (or could not be reached) again, with the
   * same `update_id`, up to `attempts` more times `delayMs` apart; the delivery settles with the last answer.
   * Default: no retry (the first answer settles it, so a test sees exactly what the bot answered).
   */
  readonly webhookRetry?: WebhookRetry;
  /**
   * What `sendPhoto` and `sendDocument` accept: default Telegram's 10 MB a photo (400 over it) and 50 MB a file (413
   * "Request Entity Too Large" over it); a test of the refusal may lower them.
   */
  readonly uploadLimits?: TelegramUploadLimits;
}

/** Who sends an injected message and to which bot(s). */
export interface TelegramInbound {
  readonly text: string;
  /** Sender; default the fake's human `user`. */
  readonly from?: TgUser;
  /** Token of the one bot that receives it; default: the first bot for DMs, every bot for groups. */
  readonly bot?: string;
}

/** Handle to a running fake Telegram Bot API. */
export interface FakeTelegram {
  /** Pass as grammy's `client.apiRoot`: `http://127.0.0.1:PORT` (no trailing slash). */
  readonly apiRoot: string;
  /** Token of the first bot. */
  readonly token: string;
  readonly bots: readonly TelegramBotAccount[];
  /** The default human sender. */
  readonly user: TgUser;
  /** Another bot that can post in groups. */
  readonly otherBot: TgUser;
  /** A plain supergroup every bot is in. */
  readonly group: TgChat;
  /** A forum supergroup (topics) every bot is in. */
  readonly forum: TgChat;
  /** Every Bot API call, in arrival order. */
  readonly calls: readonly RecordedCall[];
  callsTo(method: string): readonly RecordedCall[];
  /** Resolves with the first call (past or future) matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: CallPredicate, timeoutMs?: number): Promise<RecordedCall>;
  /** Shorthand: the `count`-th call of `method` (1-based, default 1). */
  waitForCall(method: string, count?: number, timeoutMs?: number): Promise<RecordedCall>;
  /** Makes the next matching call(s) fail with 429 (`retry_after`) or a 5xx. */
  failNext(fault: FaultSpec): void;
  /** Private chat message from `from` to one bot. */
  injectDm(inbound: TelegramInbound): Promise<Delivery<TgMessage>>;
  /** Message in a group (default `group`). */
  injectGroupMessage(inbound: TelegramInbound & { readonly chat?: TgChat }): Promise<Delivery<TgMessage>>;
  /** Group message starting with `@botusername` and a `mention` entity. */
  injectMention(inbound: TelegramInbound & { readonly chat?: TgChat }): Promise<Delivery<TgMessage>>;
  /** Reply to an earlier message (typically one the bot sent). */
  injectReply(inbound: TelegramInbound & { readonly to: TgMessage }): Promise<Delivery<TgMessage>>;
  /** Message in a forum topic of `forum`. */
  injectTopicMessage(inbound: TelegramInbound & { readonly threadId: number }): Promise<Delivery<TgMessage>>;
  /** Group message sent by `otherBot`. */
  injectBotMessage(inbound: Omit<TelegramInbound, "from"> & { readonly chat?: TgChat }): Promise<Delivery<TgMessage>>;
  /** `/command args` with a `bot_command` entity; in a DM unless `chat` is given. */
  injectCommand(
    inbound: Omit<TelegramInbound, "text"> & {
      readonly command: string;
      readonly args?: string;
      readonly chat?: TgChat;
    },
  ): Promise<Delivery<TgMessage>>;
  /**
   * A photo, voice note, sticker or document with no text (it may carry a `caption`): in a DM unless `chat` is given.
   * With `bytes` the file is served as Telegram serves it — `getFile` gives its `file_path`, and
   * `/file/bot<token>/<file_path>` its bytes (401 for another token, 404 for an unknown path); without them the
   * message has the media's metadata only.
   */
  injectMedia(inbound: {
    readonly kind: TgMediaKind;
    readonly bytes?: Uint8Array;
    /** A document's name and type as the sender's app gives them. */
    readonly fileName?: string;
    readonly mimeType?: string;
    readonly caption?: string;
    readonly from?: TgUser;
    readonly chat?: TgChat;
    readonly bot?: string;
    /** Makes the message an item of an album (`media_group_id`); see `injectAlbum` to send a whole one. */
    readonly mediaGroupId?: string;
    /** A sticker's format: a static WebP (default), an animated `.tgs` or a `.webm` video sticker. */
    readonly stickerFormat?: "static" | "animated" | "video";
  }): Promise<Delivery<TgMessage>>;
  /**
   * An album: several photos, videos or documents sent together, as Telegram sends them — one message (and update)
   * each, sharing a `media_group_id`, all handed over at once (the caption on the item that carries it). In a DM unless
   * `chat` is given. Contract: resolves with each item's delivery, in order.
   */
  injectAlbum(inbound: {
    readonly items: readonly {
      readonly kind: TgMediaKind;
      readonly bytes?: Uint8Array;
      readonly fileName?: string;
      readonly mimeType?: string;
      readonly caption?: string;
    }[];
    /** Default a fresh one. */
    readonly mediaGroupId?: string;
    readonly from?: TgUser;
    readonly chat?: TgChat;
    readonly bot?: string;
  }): Promise<Delivery<TgMessage>[]>;
  /** Inline button press on `message`. */
  injectCallbackQuery(inbound: {
    readonly data: string;
    readonly message: TgMessage;
    readonly from?: TgUser;
    readonly bot?: string;
  }): Promise<Delivery<TgUpdate>>;
  /** Raw update to one bot (the fake assigns `update_id`). */
  injectUpdate(token: string, fields: Omit<TgUpdate, "update_id">): Promise<Delivery<TgUpdate>>;
  /**
   * Serves a bot's last `count` confirmed updates again, with their `update_id`s, as Telegram does when the bot
   * crashed before its next `getUpdates` confirmed them. Contract: returns how many will be served again.
   */
  redeliver(token: string, count: number): number;
  /** Messages of one chat, oldest first (inbound and bot-sent). */
  conversation(chatId: number): TgMessage[];
  /**
   * Files bots sent with `sendPhoto` / `sendDocument` (multipart uploads, as grammy sends an `InputFile`), oldest first:
   * the bytes as they arrived and the message (`photo` sizes or `document`, `caption`). Each is then served like a file a
   * person sent: `getFile` with its `file_id`, and the file route.
   */
  sentFiles(): TelegramSentFile[];
  /** Stops the server, ends long polls and webhook posts. */
  close(): Promise<void>;
}
