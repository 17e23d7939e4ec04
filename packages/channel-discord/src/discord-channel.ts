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
import type { APIMessage, APIUser, Client, GatewayDispatchPayload, WebSocketOptions } from "discord.js";
import { abortableSleep } from "./abortable-sleep.js";
import { discordButtonRowsOf, normaliseDiscordButtonPress } from "./discord-buttons.js";
import { discordCommandPayloads, normaliseDiscordCommand } from "./discord-commands.js";
import { toDiscordChannelError } from "./discord-errors.js";
import { type DiscordSelf, normaliseDiscordMessage } from "./discord-inbound.js";
import { snowflakeCreatedAt } from "./discord-snowflake.js";
import {
  describeWait,
  type IdentifyBudgetVerdict,
  identifyBudgetVerdict,
  type SessionStartLimit,
} from "./identify-budget.js";
import { DISCORD_IDENTIFY_INTERVAL_MS, IdentifyPacer } from "./identify-pacer.js";
import { ReplayFirstInbound } from "./replay-first-inbound.js";
import { type GatewayDispatch, replayShardSession, type ShardSession, shardSessionOf } from "./shard-session-replay.js";

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

/** How long a shard waits before asking for the IDENTIFY budget again after asking (or connecting) failed. */
const SHARD_RETRY_MS = 5000;

/** What connecting one shard takes. */
interface ShardParts {
  readonly shard: number;
  readonly shardCount: number;
  readonly rest: { globalRequestsPerSecond: number; api?: string };
  readonly pacer: IdentifyPacer;
  readonly lease: IngressLease;
  /** `session_start_limit` of `GET /gateway/bot`, asked afresh. */
  readonly sessionStartLimit: () => Promise<SessionStartLimit>;
  readonly listen: (client: Client, inbound: ReplayFirstInbound) => void;
}

/** The @discordjs/ws manager a discord.js Client runs its gateway socket on (what `ws.buildStrategy` is given). */
type ShardSockets = Parameters<NonNullable<WebSocketOptions["buildStrategy"]>>[0];

/** A shard connected here: its discord.js Client and, once it connects, the @discordjs/ws manager under it. */
interface ShardConnection {
  readonly client: Client;
  sockets: ShardSockets | undefined;
}

/** A held shard waiting for the daily IDENTIFY budget: the timer that asks again. */
interface BudgetWait {
  timer: NodeJS.Timeout | undefined;
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
  readonly #shardClients = new Map<number, ShardConnection>();
  /** Shards held here but not connected: the daily IDENTIFY budget is spent (down to its reserve). */
  readonly #budgetWaits = new Map<number, BudgetWait>();
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
    // A shard taken over hands on the previous holder's replayed messages before its own live ones (`inbound`).
    const listen = (client: Client, inbound: ReplayFirstInbound): void => {
      client.on(discord.Events.MessageCreate, (message) => {
        const self = this.#self;
        if (self === undefined) return;
        const normalised = normaliseDiscordMessage(message, self, this.#now());
        inbound.pass(() => deliver(normalised));
      });
      client.on(discord.Events.InteractionCreate, (interaction) => {
        const self = this.#self;
        if (self === undefined) return;
        if (interaction.isChatInputCommand()) {
          const command = normaliseDiscordCommand(interaction, self, this.#now(), this.#timers);
          inbound.pass(() => deliver(command));
        } else if (interaction.isButton()) {
          // Acknowledged at once with DEFERRED_UPDATE_MESSAGE (type 6): Discord shows "This interaction failed" after
          // 3 s without an answer, and the gateway answers a press with an ordinary message, not through the press.
          interaction
            .deferUpdate()
            .catch((error: unknown) => this.#options.onError?.(toDiscordChannelError(error, "button acknowledgement")));
          const press = normaliseDiscordButtonPress(interaction, self, this.#now());
          inbound.pass(() => deliver(press));
        }
      });
    };
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
              this.#startShard(discord, { shard, shardCount, rest, pacer, lease, sessionStartLimit, listen }),
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
    for (const wait of this.#budgetWaits.values()) clearTimeout(wait.timer);
    this.#budgetWaits.clear();
    await Promise.all([...this.#shardClients.keys()].map((shard) => this.#disconnectShard(shard)));
    this.#self = undefined;
    await this.#client.release()?.destroy();
  }

  /**
   * Connects a shard this instance now holds, when the bot's daily IDENTIFY budget allows (`identifyBudgetVerdict`);
   * otherwise warns and asks again after Discord's `reset_after`, keeping the lease (every instance shares the budget,
   * so another could not do better) while the other shards run on. `wait` is set when asking again.
   */
  async #startShard(discord: typeof import("discord.js"), parts: ShardParts, wait?: BudgetWait): Promise<void> {
    // The bucket's slot first, then the budget: no other IDENTIFY of the bucket comes between the check and its own.
    await parts.pacer.waitForIdentify(parts.shard);
    const verdict = await this.#identifyBudget(parts);
    // Given up meanwhile: the lease lost, or the channel stopped, while the budget was asked again.
    if (wait !== undefined && this.#budgetWaits.get(parts.shard) !== wait) return;
    this.#budgetWaits.delete(parts.shard);
    if (verdict.kind === "identify") await this.#connectShard(discord, parts);
    else this.#askBudgetAgain(discord, parts, verdict.retryAfterMs);
  }

  /** Asks Discord for the daily IDENTIFY budget; warns (without the token) when the shard may not IDENTIFY now. */
  async #identifyBudget(parts: ShardParts): Promise<IdentifyBudgetVerdict> {
    const limit = await parts.sessionStartLimit();
    const verdict = identifyBudgetVerdict(limit);
    if (verdict.kind === "identify") return verdict;
    const at = new Date(Date.now() + verdict.retryAfterMs).toISOString();
    this.#options.onError?.(
      new ChannelError(
        "rate-limited",
        `discord shard ${parts.shard}: not identifying, the daily IDENTIFY budget is spent (${limit.remaining} of ` +
          `${limit.total} left, ${verdict.reserve} kept back: Discord resets the token beyond it); trying again in ` +
          `${describeWait(verdict.retryAfterMs)} (${at}). The other shards run on.`,
        { retryAfterMs: verdict.retryAfterMs },
      ),
    );
    return verdict;
  }

  /**
   * The IDENTIFY throttler of a shard's discord.js client: the first IDENTIFY goes at once (`#startShard` took its
   * slot and checked the budget); a later one (the session lost for good while connected) waits for a slot and the
   * budget, while discord.js keeps its socket open.
   */
  #identifyThrottler(parts: ShardParts): { waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> } {
    let slotTaken = true;
    return {
      waitForIdentify: async (shardId, signal) => {
        if (slotTaken) {
          slotTaken = false;
          return;
        }
        for (;;) {
          await parts.pacer.waitForIdentify(shardId, signal);
          // A throttler that throws makes @discordjs/ws tear the shard down; Discord's REST unreachable is waited out.
          const verdict = await this.#identifyBudget(parts).catch((error: unknown) => {
            this.#options.onError?.(toDiscordChannelError(error, `shard ${shardId} identify budget`));
            return { kind: "wait", retryAfterMs: SHARD_RETRY_MS, reserve: 0 } as const;
          });
          if (verdict.kind === "identify") return;
          await abortableSleep(verdict.retryAfterMs, signal);
        }
      },
    };
  }

  #askBudgetAgain(discord: typeof import("discord.js"), parts: ShardParts, afterMs: number): void {
    const wait: BudgetWait = { timer: undefined };
    wait.timer = setTimeout(() => {
      this.#startShard(discord, parts, wait).catch((error: unknown) => {
        this.#options.onError?.(toDiscordChannelError(error, `shard ${parts.shard} connect`));
        if (this.#budgetWaits.get(parts.shard) === wait) this.#askBudgetAgain(discord, parts, SHARD_RETRY_MS);
      });
    }, afterMs);
    this.#budgetWaits.set(parts.shard, wait);
  }

  /** Opens the gateway WebSocket of one shard (IDENTIFY, paced) and saves its session with the lease as it goes. */
  async #connectShard(discord: typeof import("discord.js"), parts: ShardParts): Promise<void> {
    const client = new discord.Client({
      intents: Object.values(INTENT_BITS).reduce((all, bit) => all | bit, 0),
      // DMs arrive on channels discord.js has not cached; without Partials.Channel they are dropped silently.
      partials: [discord.Partials.Channel],
      rest: parts.rest,
      shards: [parts.shard],
      shardCount: parts.shardCount,
      ws: {
        buildIdentifyThrottler: () => this.#identifyThrottler(parts),
        // discord.js's default strategy, built here to keep hold of the @discordjs/ws manager through public API: its
        // `destroy` takes a close code (discord.js's own sends 1000) and its Dispatch event is what discord.js reads.
        buildStrategy: (manager) => {
          connection.sockets = manager;
          return new discord.SimpleShardingStrategy(manager);
        },
      },
    });
    const connection: ShardConnection = { client, sockets: undefined };
    this.#shardClients.set(parts.shard, connection);
    // Taken over from an instance that died holding the shard: its session is RESUMEd below for what it missed, and
    // this client's live messages wait until those are handed on (a chat's older messages first).
    const previous = shardSessionOf(parts.lease.state);
    const inbound = new ReplayFirstInbound(previous !== undefined);
    parts.listen(client, inbound);
    // The session id and sequence go with the lease (at most every second), for whoever holds the shard next; not
    // while live messages are held back (a holder dying then would leave them behind the saved sequence).
    let session: { sessionId: string | undefined; resumeUrl: string | undefined; sequence: number } = {
      sessionId: undefined,
      resumeUrl: undefined,
      sequence: 0,
    };
    let saved = 0;
    let replaying = false;
    const save = (): void => {
      if (session.sessionId === undefined || inbound.holding) return;
      saved = Date.now();
      const state: ShardSession = {
        sessionId: session.sessionId,
        resumeUrl: session.resumeUrl ?? "",
        sequence: session.sequence,
      };
      void parts.lease.save({ ...state });
    };
    client.on(discord.Events.Raw, (packet: { t?: string | null; s?: number | null; d?: unknown }) => {
      // A replayed dispatch carries the previous session's sequence, not this one's.
      if (replaying) return;
      if (packet.t === "READY") {
        const ready = packet.d as { session_id?: string; resume_gateway_url?: string };
        session = { sessionId: ready.session_id, resumeUrl: ready.resume_gateway_url, sequence: 0 };
      }
      if (typeof packet.s === "number") session.sequence = packet.s;
      if (Date.now() - saved >= SHARD_SAVE_MS) save();
    });
    try {
      const ready = once(client, discord.Events.ClientReady);
      await client.login(this.#options.token);
      await ready;
    } catch (error) {
      await this.#disconnectShard(parts.shard);
      throw error;
    }
    // What Discord kept for the previous holder's session (sent after its last read) is fetched with a RESUME of that
    // session and handed to this client as if it had come on its own socket, then the live messages held meanwhile.
    // What the previous holder did read comes again too, and is stored once (the message id is the event id).
    if (previous === undefined) return;
    let missed: readonly GatewayDispatch[] = [];
    try {
      missed = await replayShardSession(previous, this.#options.token);
    } finally {
      // Emitted as the Dispatch event of the @discordjs/ws manager, as if it had come on this client's socket.
      // discord.js's listener and its MessageCreate are synchronous: the replayed messages pass before the held ones.
      // (Typed by hand: @discordjs/ws's `WebSocketShardEvents.Dispatch` is "dispatch", but discord.js's own, older
      // `WebSocketShardEvents` hides that enum's name.)
      const sockets = connection.sockets as unknown as
        | { emit(event: "dispatch", payload: { data: GatewayDispatchPayload; shardId: number }): boolean }
        | undefined;
      inbound.release(() => {
        replaying = true;
        try {
          for (const packet of missed) {
            if (packet.t !== "MESSAGE_CREATE") continue;
            sockets?.emit("dispatch", { data: packet as unknown as GatewayDispatchPayload, shardId: parts.shard });
          }
        } finally {
          replaying = false;
        }
      });
      save();
    }
  }

  async #disconnectShard(shard: number): Promise<void> {
    clearTimeout(this.#budgetWaits.get(shard)?.timer);
    this.#budgetWaits.delete(shard);
    const connection = this.#shardClients.get(shard);
    this.#shardClients.delete(shard);
    if (connection === undefined) return;
    // Closed with a code that keeps the session resumable (discord.js's own destroy sends 1000, which ends it): the next
    // holder of the shard RESUMEs it for the events sent in between.
    await Promise.resolve(
      connection.sockets?.destroy({ code: RESUMABLE_CLOSE_CODE, reason: "shard handed over" }),
    ).catch(() => {});
    await connection.client.destroy();
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
