import { once } from "node:events";
import type {
  Channel,
  ChannelAccountOptions,
  ChannelCapabilities,
  InboundMessage,
  InboundSink,
  OutboundMessage,
  SendTarget,
  SentMessage,
} from "@chorus/gateway";
import { ChannelError, ClientSlot, EditBudget, inboundDelivery, requireOption } from "@chorus/gateway";
import type { APIMessage, Client } from "discord.js";
import { discordButtonRowsOf, normaliseDiscordButtonPress } from "./discord-buttons.js";
import { discordCommandPayloads, normaliseDiscordCommand } from "./discord-commands.js";
import { toDiscordChannelError } from "./discord-errors.js";
import { type DiscordSelf, normaliseDiscordMessage } from "./discord-inbound.js";
import { snowflakeCreatedAt } from "./discord-snowflake.js";

/** Discord's documented global REST limit for a bot: 50 requests per second (large bots can ask for more). */
export const DISCORD_GLOBAL_REQUESTS_PER_SECOND = 50;
/** Discord refuses (error 30046) further edits of messages older than an hour; the reply layer sends anew. */
export const DISCORD_EDIT_WINDOW_MS = 60 * 60 * 1000;
/** Discord's limit on a message nonce; a longer idempotency key is not sent. */
const DISCORD_NONCE_MAX_LENGTH = 25;

/** Options of a Discord bot account (with `accountId`, `onError` and `now` of ChannelAccountOptions). */
export interface DiscordChannelOptions extends ChannelAccountOptions {
  /** The bot token. Never logged. */
  readonly token: string;
  /** REST base URL, e.g. a test server's `http://127.0.0.1:PORT/api`; default Discord's. */
  readonly restApi?: string;
  /**
   * The @discordjs/rest global cap. Default DISCORD_GLOBAL_REQUESTS_PER_SECOND, what Discord documents for a bot;
   * raise it for a bot whose limit Discord raised.
   */
  readonly globalRequestsPerSecond?: number;
  /** Register the gateway's native commands (/agents /status /new /stop /goal /usage /schedule) as global application commands on start. Default true. */
  readonly registerCommands?: boolean;
}

/**
 * What a Discord channel can do: 2 000 characters and 17 lines a message, about 5 edits per 5 s per channel; buttons
 * (one action row of up to five under a message).
 */
export const DISCORD_CAPABILITIES: ChannelCapabilities = {
  maxMessageLength: 2000,
  maxLines: 17,
  edit: true,
  delete: true,
  typing: true,
  threads: true,
  reactions: true,
  buttons: true,
  markup: "discord-md",
  editRate: { edits: 5, perMs: 5000 },
};

const INTENT_BITS = { Guilds: 1 << 0, GuildMessages: 1 << 9, DirectMessages: 1 << 12, MessageContent: 1 << 15 };

/**
 * A Discord bot account as a Channel, over discord.js (loaded on start).
 * Contract: DMs arrive as "dm", guild channels as "group", thread messages with threadId; eventId is the message
 * id, so a message replayed after RESUME carries the same eventId; a button press arrives as a message whose text is
 * the button's id, its interaction acknowledged at once; send/edit/typing reject with ChannelError.
 * discord.js RESUMEs dropped sessions itself; its REST client retries 429s after the platform's retry-after.
 */
export class DiscordChannel implements Channel {
  readonly id = "discord";
  readonly accountId: string;
  readonly capabilities = DISCORD_CAPABILITIES;

  readonly #options: DiscordChannelOptions;
  readonly #now: () => number;
  readonly #budget: EditBudget;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #client = new ClientSlot<Client>("discord", toDiscordChannelError);

  constructor(options: DiscordChannelOptions) {
    requireOption("discord", "accountId", options.accountId);
    requireOption("discord", "token", options.token);
    this.accountId = options.accountId;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#budget = new EditBudget(DISCORD_CAPABILITIES.editRate, this.#now);
  }

  /** The bot's user id once started. */
  get botUserId(): string | undefined {
    return this.#client.current?.user?.id;
  }

  async start(sink: InboundSink): Promise<void> {
    this.#client.claim();
    const discord = await import("discord.js");
    const rest: { globalRequestsPerSecond: number; api?: string } = {
      globalRequestsPerSecond: this.#options.globalRequestsPerSecond ?? DISCORD_GLOBAL_REQUESTS_PER_SECOND,
    };
    if (this.#options.restApi !== undefined) rest.api = this.#options.restApi;
    const client = new discord.Client({
      intents: Object.values(INTENT_BITS).reduce((all, bit) => all | bit, 0),
      // DMs arrive on channels discord.js has not cached; without Partials.Channel they are dropped silently.
      partials: [discord.Partials.Channel],
      rest,
    });
    this.#client.hold(client);
    // discord.js does not await its listeners: each event is handed on without waiting for the one before.
    const deliverInbound = inboundDelivery(sink, this.#options.onError);
    const deliver = (inbound: InboundMessage | undefined): void => {
      void Promise.resolve().then(() => deliverInbound(inbound));
    };
    client.on(discord.Events.MessageCreate, (message) => {
      const self = this.#self();
      if (self !== undefined) deliver(normaliseDiscordMessage(message, self, this.#now()));
    });
    client.on(discord.Events.InteractionCreate, (interaction) => {
      const self = this.#self();
      if (self === undefined) return;
      if (interaction.isChatInputCommand()) {
        deliver(normaliseDiscordCommand(interaction, self, this.#now(), this.#timers));
      } else if (interaction.isButton()) {
        // Acknowledged at once with DEFERRED_UPDATE_MESSAGE (type 6): Discord shows "This interaction failed" after
        // 3 s without an answer, and the gateway answers a press with an ordinary message, not through the press.
        interaction
          .deferUpdate()
          .catch((error: unknown) => this.#options.onError?.(toDiscordChannelError(error, "button acknowledgement")));
        deliver(normaliseDiscordButtonPress(interaction, self, this.#now()));
      }
    });
    await this.#client.connect(
      async () => {
        const ready = once(client, discord.Events.ClientReady);
        await client.login(this.#options.token);
        await ready;
        if (this.#options.registerCommands ?? true) {
          const applicationId = client.application?.id ?? client.user?.id;
          await client.rest.put(`/applications/${applicationId}/commands`, { body: discordCommandPayloads() });
        }
      },
      () => this.stop(),
    );
  }

  async stop(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#budget.clear();
    await this.#client.release()?.destroy();
  }

  async send(target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> {
    const channelId = target.threadId ?? target.chatId;
    const body: Record<string, unknown> = {
      content: outbound.text,
      // Never let a model's output ping @everyone or roles; replying pings nobody either.
      allowed_mentions: { parse: ["users"], replied_user: false },
    };
    const components = discordButtonRowsOf(outbound.buttons);
    if (components !== undefined) body.components = components;
    // A button press's `interaction:…` id names no message to reply to (Discord would refuse the whole send).
    if (target.replyToMessageId !== undefined && snowflakeCreatedAt(target.replyToMessageId) !== undefined) {
      body.message_reference = { message_id: target.replyToMessageId, fail_if_not_exists: false };
    }
    // Discord returns the earlier message instead of posting a second one with the same nonce (for a few minutes).
    const key = outbound.idempotencyKey;
    if (key !== undefined && key.length <= DISCORD_NONCE_MAX_LENGTH) {
      body.nonce = key;
      body.enforce_nonce = true;
    }
    const sent = (await this.#client.call("send", (client) =>
      client.rest.post(`/channels/${channelId}/messages`, { body }),
    )) as APIMessage;
    const result: SentMessage = { messageId: sent.id, chatId: target.chatId, sentAt: this.#now() };
    return target.threadId === undefined ? result : { ...result, threadId: target.threadId };
  }

  async edit(message: SentMessage, outbound: OutboundMessage): Promise<void> {
    // The id tells the message's real age; callers that kept only the id pass sentAt 0.
    const createdAt = snowflakeCreatedAt(message.messageId) ?? message.sentAt;
    if (this.#now() - createdAt > DISCORD_EDIT_WINDOW_MS) {
      throw new ChannelError("edit-window-expired", "discord does not allow editing messages older than 1 hour");
    }
    const channelId = message.threadId ?? message.chatId;
    this.#budget.take(channelId);
    // Discord keeps the fields a PATCH omits: an edit without buttons sends an empty list, which removes earlier ones
    // (as Telegram's edit drops the keyboard and Slack's the blocks).
    const body = { content: outbound.text, components: discordButtonRowsOf(outbound.buttons) ?? [] };
    await this.#client.call("edit", (client) =>
      client.rest.patch(`/channels/${channelId}/messages/${message.messageId}`, { body }),
    );
  }

  async delete(message: SentMessage): Promise<void> {
    const channelId = message.threadId ?? message.chatId;
    await this.#client.call("delete", (client) =>
      client.rest.delete(`/channels/${channelId}/messages/${message.messageId}`),
    );
  }

  async typing(target: SendTarget): Promise<void> {
    await this.#client.call("typing", (client) =>
      client.rest.post(`/channels/${target.threadId ?? target.chatId}/typing`),
    );
  }

  async react(message: SentMessage, emoji: string): Promise<void> {
    const channelId = message.threadId ?? message.chatId;
    const path = `/channels/${channelId}/messages/${message.messageId}/reactions/${encodeURIComponent(emoji)}/@me`;
    await this.#client.call("react", (client) => client.rest.put(path as `/${string}`));
  }

  #self(): DiscordSelf | undefined {
    const botUserId = this.#client.current?.user?.id;
    return botUserId === undefined ? undefined : { accountId: this.accountId, botUserId };
  }
}
