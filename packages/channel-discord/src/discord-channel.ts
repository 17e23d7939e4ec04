import { once } from "node:events";
import type {
  Channel,
  ChannelAccountOptions,
  ChannelCapabilities,
  ChannelStartContext,
  InboundMessage,
  InboundSink,
  IngressLease,
  IngressRegistration,
  OutboundMessage,
  SendTarget,
  SentMessage,
} from "@chorus/gateway";
import {
  ChannelError,
  ChannelOptionsError,
  ClientSlot,
  EditBudget,
  inboundDelivery,
  ingressUnitName,
  localIngress,
  requireOption,
} from "@chorus/gateway";
import type { APIMessage, APIUser, Client } from "discord.js";
import { discordButtonRowsOf, normaliseDiscordButtonPress } from "./discord-buttons.js";
import { discordCommandPayloads, normaliseDiscordCommand } from "./discord-commands.js";
import { toDiscordChannelError } from "./discord-errors.js";
import { type DiscordSelf, normaliseDiscordMessage } from "./discord-inbound.js";
import { snowflakeCreatedAt } from "./discord-snowflake.js";
import { DISCORD_IDENTIFY_INTERVAL_MS, IdentifyPacer } from "./identify-pacer.js";
import { replayShardSession, type ShardSession, shardSessionOf } from "./shard-session-replay.js";

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
  /**
   * Gateway shards: a count, or "auto" for the count `GET /gateway/bot` recommends. Default 1. Each shard is one
   * WebSocket and one ingress unit (`discord:<token hash>:<shard>`): in a cluster each is held by one instance.
   */
  readonly shards?: number | "auto";
  /** Spacing of IDENTIFYs within one `max_concurrency` bucket in this process. Default 5000 ms (Discord's). */
  readonly identifyIntervalMs?: number;
}

/** A close code that does not end the Discord session (1000 and 1001 do): 4200, what @discordjs/ws uses to resume. */
const RESUMABLE_CLOSE_CODE = 4200;

/** How often a shard's sequence is saved with its lease at most. */
const SHARD_SAVE_MS = 1000;

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
 * Each gateway shard (`shards`) is one discord.js Client, run while this instance holds the shard's ingress lease
 * (`ChannelStartContext.ingress`; alone, always); a shard taken over from a dead holder is IDENTIFIED and the holder's
 * saved session RESUMEd for the messages it missed.
 */
export class DiscordChannel implements Channel {
  readonly id = "discord";
  readonly accountId: string;
  readonly capabilities = DISCORD_CAPABILITIES;

  readonly #options: DiscordChannelOptions;
  readonly #now: () => number;
  readonly #budget: EditBudget;
  readonly #timers = new Set<NodeJS.Timeout>();
  /** A discord.js Client that never logs in: REST only (sends, edits, commands). Gateway shards have their own. */
  readonly #client = new ClientSlot<Client>("discord", toDiscordChannelError);
  readonly #shardClients = new Map<number, Client>();
  #shardUnits: IngressRegistration[] = [];
  #self: DiscordSelf | undefined;

  constructor(options: DiscordChannelOptions) {
    requireOption("discord", "accountId", options.accountId);
    requireOption("discord", "token", options.token);
    const shards = options.shards ?? 1;
    if (shards !== "auto" && (!Number.isInteger(shards) || shards < 1)) {
      throw new ChannelOptionsError(
        `discord channel: shards must be "auto" or a whole number ≥ 1, got ${String(shards)}`,
      );
    }
    this.accountId = options.accountId;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#budget = new EditBudget(DISCORD_CAPABILITIES.editRate, this.#now);
  }

  /** The bot's user id once started. */
  get botUserId(): string | undefined {
    return this.#self?.botUserId;
  }

  /** The gateway shards this instance holds a connection for now, sorted. */
  get connectedShards(): number[] {
    return [...this.#shardClients.keys()].sort((a, b) => a - b);
  }

  async start(sink: InboundSink, context?: ChannelStartContext): Promise<void> {
    this.#client.claim();
    const shardsOption = this.#options.shards ?? 1;
    const discord = await import("discord.js");
    const rest: { globalRequestsPerSecond: number; api?: string } = {
      globalRequestsPerSecond: this.#options.globalRequestsPerSecond ?? DISCORD_GLOBAL_REQUESTS_PER_SECOND,
    };
    if (this.#options.restApi !== undefined) rest.api = this.#options.restApi;
    const restClient = new discord.Client({ intents: 0, rest });
    restClient.rest.setToken(this.#options.token);
    this.#client.hold(restClient);
    // discord.js does not await its listeners: each event is handed on without waiting for the one before.
    const deliverInbound = inboundDelivery(sink, this.#options.onError);
    const deliver = (inbound: InboundMessage | undefined): void => {
      void Promise.resolve().then(() => deliverInbound(inbound));
    };
    const listen = (client: Client): void => {
      client.on(discord.Events.MessageCreate, (message) => {
        const self = this.#self;
        if (self !== undefined) deliver(normaliseDiscordMessage(message, self, this.#now()));
      });
      client.on(discord.Events.InteractionCreate, (interaction) => {
        const self = this.#self;
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
    };
    await this.#client.connect(
      async () => {
        const me = (await restClient.rest.get("/users/@me")) as APIUser;
        this.#self = { accountId: this.accountId, botUserId: me.id };
        const gateway = (await restClient.rest.get("/gateway/bot")) as {
          shards: number;
          session_start_limit: { max_concurrency: number };
        };
        const shardCount = shardsOption === "auto" ? Math.max(1, gateway.shards) : shardsOption;
        const ingress = context?.ingress ?? localIngress;
        // Buckets are paced here and, in a cluster, across instances (a row per bucket in the database).
        const pacer = new IdentifyPacer(
          gateway.session_start_limit.max_concurrency,
          this.#options.identifyIntervalMs ?? DISCORD_IDENTIFY_INTERVAL_MS,
          (bucket, intervalMs) =>
            ingress.pace(ingressUnitName("discord", this.#options.token, `identify:${bucket}`), intervalMs),
        );
        if (this.#options.registerCommands ?? true) {
          const application = (await restClient.rest.get("/applications/@me")) as { id: string };
          await restClient.rest.put(`/applications/${application.id}/commands`, { body: discordCommandPayloads() });
        }
        // One gateway WebSocket per shard, each run where its ingress lease is (alone: all of them, here).
        for (let shard = 0; shard < shardCount; shard++) {
          const unit = await ingress.run(ingressUnitName("discord", this.#options.token, shard), {
            start: (lease) => this.#connectShard(discord, { shard, shardCount, rest, pacer, lease, listen }),
            stop: () => this.#disconnectShard(shard),
          });
          this.#shardUnits.push(unit);
        }
      },
      () => this.stop(),
    );
  }

  async stop(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#budget.clear();
    const units = this.#shardUnits;
    this.#shardUnits = [];
    for (const unit of units) await unit.withdraw();
    await Promise.all([...this.#shardClients.keys()].map((shard) => this.#disconnectShard(shard)));
    this.#self = undefined;
    await this.#client.release()?.destroy();
  }

  /** Opens the gateway WebSocket of one shard (IDENTIFY, paced) and saves its session with the lease as it goes. */
  async #connectShard(
    discord: typeof import("discord.js"),
    parts: {
      shard: number;
      shardCount: number;
      rest: { globalRequestsPerSecond: number; api?: string };
      pacer: IdentifyPacer;
      lease: IngressLease;
      listen: (client: Client) => void;
    },
  ): Promise<void> {
    const client = new discord.Client({
      intents: Object.values(INTENT_BITS).reduce((all, bit) => all | bit, 0),
      // DMs arrive on channels discord.js has not cached; without Partials.Channel they are dropped silently.
      partials: [discord.Partials.Channel],
      rest: parts.rest,
      shards: [parts.shard],
      shardCount: parts.shardCount,
      ws: { buildIdentifyThrottler: () => parts.pacer },
    });
    this.#shardClients.set(parts.shard, client);
    parts.listen(client);
    // The session id and sequence go with the lease (at most every second), for whoever holds the shard next.
    let session: { sessionId: string | undefined; resumeUrl: string | undefined; sequence: number } = {
      sessionId: undefined,
      resumeUrl: undefined,
      sequence: 0,
    };
    let saved = 0;
    client.on(discord.Events.Raw, (packet: { t?: string | null; s?: number | null; d?: unknown }) => {
      if (packet.t === "READY") {
        const ready = packet.d as { session_id?: string; resume_gateway_url?: string };
        session = { sessionId: ready.session_id, resumeUrl: ready.resume_gateway_url, sequence: 0 };
      }
      if (typeof packet.s === "number") session.sequence = packet.s;
      const now = Date.now();
      if (session.sessionId === undefined || now - saved < SHARD_SAVE_MS) return;
      saved = now;
      const state: ShardSession = {
        sessionId: session.sessionId,
        resumeUrl: session.resumeUrl ?? "",
        sequence: session.sequence,
      };
      void parts.lease.save({ ...state });
    });
    try {
      const ready = once(client, discord.Events.ClientReady);
      await client.login(this.#options.token);
      await ready;
    } catch (error) {
      await this.#disconnectShard(parts.shard);
      throw error;
    }
    // Taken over from an instance that died holding the shard: what Discord kept for its session (sent after its last
    // read) is fetched with a RESUME of that session and handed to this client as if it had come on its own socket.
    // What the previous holder did read comes again too, and is stored once (the message id is the event id).
    const previous = shardSessionOf(parts.lease.state);
    if (previous === undefined) return;
    const missed = await replayShardSession(previous, this.#options.token);
    // discord.js has no public way to take a dispatch from elsewhere; `handlePacket` is what its own socket calls.
    const manager = client.ws as unknown as { handlePacket(packet: unknown, shard: unknown): boolean };
    const shard = client.ws.shards.get(parts.shard);
    for (const packet of missed) if (packet.t === "MESSAGE_CREATE") manager.handlePacket(packet, shard);
  }

  async #disconnectShard(shard: number): Promise<void> {
    const client = this.#shardClients.get(shard);
    this.#shardClients.delete(shard);
    if (client === undefined) return;
    // Closed with a code that keeps the session resumable (discord.js's own destroy sends 1000, which ends it): the next
    // holder of the shard RESUMEs it for the events sent in between. Through the @discordjs/ws manager discord.js holds.
    const manager = (
      client.ws as unknown as { _ws?: { destroy(options: { code: number; reason: string }): Promise<void> } }
    )._ws;
    await manager?.destroy({ code: RESUMABLE_CLOSE_CODE, reason: "shard handed over" }).catch(() => {});
    await client.destroy();
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
}
