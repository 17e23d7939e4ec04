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
  ChannelError,
  ChannelOptionsError,
  ClientSlot,
  EditBudget,
  inboundDelivery,
  ingressUnitName,
  localIngress,
  requireOption,
} from "@chorus/channel";
import type { APIMessage, APIUser, Client } from "discord.js";
import { discordCommandPayloads } from "./discord-commands.js";
import { toDiscordChannelError } from "./discord-errors.js";
import { fetchDiscordAttachment, type RefreshedAttachmentUrl } from "./discord-fetch-attachment.js";
import type { DiscordSelf } from "./discord-inbound.js";
import { listenForInbound } from "./discord-inbound-listener.js";
import { discordEditBody, discordSendBody } from "./discord-outbound.js";
import { DISCORD_MAX_UPLOAD_BYTES, discordFileRequest } from "./discord-send-file.js";
import { DiscordShards } from "./discord-shards.js";
import { snowflakeCreatedAt } from "./discord-snowflake.js";
import type { SessionStartLimit } from "./identify-budget.js";
import { DISCORD_IDENTIFY_INTERVAL_MS, IdentifyPacer } from "./identify-pacer.js";
import type { ReplayFirstInbound } from "./replay-first-inbound.js";

/** Discord's documented global REST limit for a bot: 50 requests per second (large bots can ask for more). */
export const DISCORD_GLOBAL_REQUESTS_PER_SECOND = 50;
/** Discord refuses (error 30046) further edits of messages older than an hour; the reply layer sends anew. */
export const DISCORD_EDIT_WINDOW_MS = 60 * 60 * 1000;

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
  maxUploadBytes: DISCORD_MAX_UPLOAD_BYTES,
};

/**
 * A Discord bot account as a Channel, over discord.js (loaded on start).
 * Contract: DMs arrive as "dm", guild channels as "group", thread messages with threadId; eventId is the message
 * id, so a message replayed after RESUME carries the same eventId; a button press arrives as a message whose text is
 * the button's id, its interaction acknowledged at once; send/edit/typing reject with ChannelError.
 * discord.js RESUMEs dropped sessions itself; its REST client retries 429s after the platform's retry-after.
 * Each gateway shard (`shards`) is one discord.js Client, run while this instance holds the shard's ingress lease
 * (`ChannelStartContext.ingress`; alone, always); a shard taken over from a dead holder is IDENTIFIED and the holder's
 * saved session RESUMEd for the messages it missed, handed on before the new session's live ones. A shard IDENTIFIES
 * only within the bot's daily budget (`identifyBudgetVerdict`); otherwise `onError` is told and it tries again after
 * Discord's `reset_after` (`start` does not wait for it).
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
  readonly #shards: DiscordShards;
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
    this.#shards = new DiscordShards(options);
  }

  /** The bot's user id once started. */
  get botUserId(): string | undefined {
    return this.#self?.botUserId;
  }

  /** The gateway shards this instance holds a connection for now, sorted. */
  get connectedShards(): number[] {
    return this.#shards.connected;
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
    const deliver = (inbound: InboundMessage | undefined): Promise<void> =>
      Promise.resolve().then(() => deliverInbound(inbound));
    // A shard taken over hands on the previous holder's replayed messages before its own live ones (`inbound`).
    const listen = (client: Client, inbound: ReplayFirstInbound, handedOn: (messageId: string) => void): void =>
      listenForInbound(
        client,
        inbound,
        {
          discord,
          self: () => this.#self,
          now: () => this.#now(),
          timers: this.#timers,
          deliver,
          options: this.#options,
        },
        handedOn,
      );
    await this.#client.connect(
      async () => {
        const me = (await restClient.rest.get("/users/@me")) as APIUser;
        this.#self = { accountId: this.accountId, botUserId: me.id };
        const gatewayBot = async () =>
          (await restClient.rest.get("/gateway/bot")) as { shards: number; session_start_limit: SessionStartLimit };
        const sessionStartLimit = async () => (await gatewayBot()).session_start_limit;
        const gateway = await gatewayBot();
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
            start: (lease) =>
              this.#shards.start(discord, { shard, shardCount, rest, pacer, lease, sessionStartLimit, listen }),
            stop: () => this.#shards.disconnect(shard),
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
    await this.#shards.stopAll();
    this.#self = undefined;
    await this.#client.release()?.destroy();
  }

  async send(target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> {
    const channelId = target.threadId ?? target.chatId;
    const body = discordSendBody(target, outbound);
    const sent = (await this.#client.call("send", (client) =>
      client.rest.post(`/channels/${channelId}/messages`, { body }),
    )) as APIMessage;
    const result: SentMessage = { messageId: sent.id, chatId: target.chatId, sentAt: this.#now() };
    return target.threadId === undefined ? result : { ...result, threadId: target.threadId };
  }

  /** Posts the file as an attachment, the caption as its text, with the enforced nonce of a text send. */
  async sendFile(target: SendTarget, file: OutboundFile): Promise<SentMessage> {
    const channelId = target.threadId ?? target.chatId;
    const request = discordFileRequest(target, file);
    const sent = (await this.#client.call("sendFile", (client) =>
      client.rest.post(`/channels/${channelId}/messages`, request),
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
    const body = discordEditBody(outbound);
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

  /**
   * Downloads an attachment from its CDN link (`location.url`), from Discord's CDN (or the configured REST API's origin)
   * only; an expired link is renewed through `POST /attachments/refresh-urls` (the channel must be started for that).
   * See `fetchDiscordAttachment`.
   */
  async fetchAttachment(location: AttachmentLocation, options: FetchAttachmentOptions): Promise<FetchedAttachment> {
    const refreshUrls = async (urls: readonly string[]) => {
      const answer = (await this.#client.call("refreshAttachmentUrls", (client) =>
        client.rest.post("/attachments/refresh-urls", { body: { attachment_urls: urls } }),
      )) as { refreshed_urls?: RefreshedAttachmentUrl[] };
      return answer.refreshed_urls ?? [];
    };
    const restApi = this.#options.restApi;
    const source = { refreshUrls, now: this.#now, ...(restApi === undefined ? {} : { restApi }) };
    return fetchDiscordAttachment(source, location, options);
  }

  async react(message: SentMessage, emoji: string): Promise<void> {
    const channelId = message.threadId ?? message.chatId;
    const path = `/channels/${channelId}/messages/${message.messageId}/reactions/${encodeURIComponent(emoji)}/@me`;
    await this.#client.call("react", (client) => client.rest.put(path as `/${string}`));
  }
}
