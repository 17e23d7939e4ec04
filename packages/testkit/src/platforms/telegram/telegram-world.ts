import { ConversationStore } from "../shared/conversation-store.js";
import type { Delivery } from "../shared/delivery.js";
import { TelegramFiles } from "./telegram-files.js";
import type { TelegramBotAccount, TgChat, TgMessage, TgUpdate, TgUser } from "./telegram-types.js";
import { UpdateQueue } from "./update-queue.js";
import { type WebhookRetry, WebhookSender, type WebhookTarget } from "./webhook-sender.js";

/** Per-bot state: its update queue, webhook and registered commands. */
export interface TelegramBotState {
  readonly account: TelegramBotAccount;
  readonly queue: UpdateQueue;
  webhook: WebhookSender | undefined;
  commands: unknown[];
  nextUpdateId: number;
}

/**
 * Everything the fake Telegram knows: bots, chats, messages.
 * Contract: messages are numbered per chat like Telegram; every update for a bot gets the
 * next `update_id` of that bot; a bot with a webhook gets updates posted, otherwise queued.
 */
export class TelegramWorld {
  readonly bots = new Map<string, TelegramBotState>();
  readonly chats = new Map<number, TgChat>();
  readonly messages = new ConversationStore<TgMessage>();
  /** The files people sent (served by `getFile` and the file route). */
  readonly files = new TelegramFiles();
  readonly #nextMessageId = new Map<number, number>();
  #closed = false;

  /** `webhookRetry`: how the fake posts an update its webhook did not acknowledge again (default: never). */
  constructor(readonly webhookRetry?: WebhookRetry) {}

  addBot(account: TelegramBotAccount): void {
    this.bots.set(account.token, {
      account,
      queue: new UpdateQueue(),
      webhook: undefined,
      commands: [],
      nextUpdateId: 100_000 + Math.floor(Math.random() * 1000),
    });
  }

  addChat(chat: TgChat): TgChat {
    this.chats.set(chat.id, chat);
    return chat;
  }

  nextMessageId(chatId: number): number {
    const next = (this.#nextMessageId.get(chatId) ?? 0) + 1;
    this.#nextMessageId.set(chatId, next);
    return next;
  }

  /** Stores a message in its chat's history. */
  store(message: TgMessage): TgMessage {
    this.messages.add(String(message.chat.id), String(message.message_id), message);
    return message;
  }

  findMessage(chatId: number, messageId: number): TgMessage | undefined {
    return this.messages.get(String(chatId), String(messageId));
  }

  /** Builds a message from someone else, stores it, and returns it. */
  inboundMessage(chat: TgChat, from: TgUser, fields: Partial<TgMessage>): TgMessage {
    this.addChat(chat);
    return this.store({
      message_id: this.nextMessageId(chat.id),
      date: Math.floor(Date.now() / 1000),
      chat,
      from,
      ...fields,
    });
  }

  /**
   * Hands an update to one bot: a webhook POST (settles with the bot's HTTP answer) or the
   * `getUpdates` queue (settles at once: the bot fetches it when it polls).
   */
  deliver(bot: TelegramBotState, fields: Omit<TgUpdate, "update_id">): Promise<Delivery<TgUpdate>> {
    const update: TgUpdate = { update_id: bot.nextUpdateId++, ...fields };
    if (this.#closed) return Promise.resolve({ ok: false, item: update, reason: "fake closed" });
    const webhook = bot.webhook;
    if (!webhook) {
      bot.queue.push(update);
      return Promise.resolve({ ok: true, item: update });
    }
    return new Promise((resolve) => webhook.send(update, resolve));
  }

  setWebhook(bot: TelegramBotState, target: WebhookTarget | undefined, dropPending: boolean): void {
    // The same webhook again (another instance of a bot behind one balancer starting) changes nothing, as on
    // Telegram ("Webhook is already set"): updates under way are not cut.
    const current = bot.webhook?.target;
    const same =
      target !== undefined &&
      current !== undefined &&
      current.url === target.url &&
      current.secretToken === target.secretToken &&
      current.maxConnections === target.maxConnections;
    if (same && !dropPending) return;
    // deleteWebhook without a webhook changes nothing (updates a poller confirmed can still be served again).
    if (bot.webhook === undefined && target === undefined && !dropPending) return;
    bot.webhook?.close();
    bot.webhook = target ? new WebhookSender(target, this.webhookRetry) : undefined;
    const pending = bot.queue.drain();
    if (dropPending) return;
    for (const update of pending) {
      if (bot.webhook) bot.webhook.send(update, () => {});
      else bot.queue.push(update);
    }
  }

  close(): void {
    this.#closed = true;
    for (const bot of this.bots.values()) {
      bot.queue.close();
      bot.webhook?.close();
    }
  }
}
