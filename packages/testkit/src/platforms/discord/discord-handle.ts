import type { CallPredicate, RecordedCall } from "../shared/call-log.js";
import type { Delivery } from "../shared/delivery.js";
import type { FaultSpec } from "../shared/fault-plan.js";
import type { AttachedFile } from "./discord-files.js";
import type {
  DiscordBotAccount,
  DiscordChannel,
  DiscordInteraction,
  DiscordMessage,
  DiscordUser,
} from "./discord-types.js";
import type { FakeGuild } from "./discord-world.js";
import type { DiscordSentFile } from "./rest-uploads.js";
import type { SessionStartLimitSpec, SessionStartLimitView } from "./session-start-limit.js";

/** A bot account to create on the fake Discord. */
export interface DiscordBotSpec {
  readonly token?: string;
  readonly username?: string;
}

/** Options for `startFakeDiscord`. */
export interface FakeDiscordOptions {
  /** Bot accounts, keyed by token. Default: one bot, `chorus-test-bot`. */
  readonly bots?: readonly DiscordBotSpec[];
  /** `heartbeat_interval` sent in HELLO. Default 41 250 ms (Discord's); tests may lower it. */
  readonly heartbeatIntervalMs?: number;
  /** Dispatches kept per session for RESUME. Default 1000. */
  readonly replayBufferSize?: number;
  /** Guild text channels beyond `general` and `random` (for load spread over channels). Default 0. */
  readonly extraTextChannels?: number;
  /** Keep at most this many recorded calls (the oldest half is dropped when full). Default: all. */
  readonly callLogLimit?: number;
  /** Echo bot-sent messages back as MESSAGE_CREATE/UPDATE/DELETE, as Discord does. Default true. */
  readonly echoBotMessages?: boolean;
  /** How long an attachment's CDN link works. Default 24 h (Discord's links last about that long). */
  readonly attachmentUrlTtlMs?: number;
  /**
   * Guilds every bot is in (each with the same channels as `guild`). Default 1. Guild `i` is on shard `i % N` for
   * every shard count N up to 10, so `guilds: 2` with 2 shards puts one guild on each.
   */
  readonly guilds?: number;
  /** The shard count `GET /gateway/bot` recommends (`shards`). Default 1. */
  readonly shards?: number;
  /** `session_start_limit.max_concurrency` of `GET /gateway/bot`. Default 1. */
  readonly maxConcurrency?: number;
  /**
   * Every bot's daily IDENTIFY budget (`session_start_limit` of `GET /gateway/bot`): default 1000 a day, full. Each
   * IDENTIFY spends one, RESUME none; at `resetAfterMs` it is full again. An IDENTIFY with none left is refused
   * (close 4004, as the token reset Discord does then) and logged as `gateway.identifyOverBudget`.
   */
  readonly sessionStartLimit?: SessionStartLimitSpec;
  /**
   * The largest file a bot may attach to a message (`files[n]` of a multipart `POST /channels/:id/messages`); a larger
   * one refuses the message with 413, code 40005 "Request entity too large". Default 10 MiB (a bot without boosts).
   */
  readonly maxUploadBytes?: number;
}

/** An injected message: who says what, and which bot(s) should see it. */
export interface DiscordInbound {
  readonly content: string;
  /** Author; default the fake's human `user`. */
  readonly author?: DiscordUser;
  /** Token of the bot the DM goes to / the bot that is mentioned. Default: the first bot. */
  readonly bot?: string;
  /**
   * Files attached to the message: each an `attachments` entry whose `url` is a signed CDN link that expires after
   * `attachmentUrlTtlMs` (404 then) and is renewed by `POST /attachments/refresh-urls`, as on Discord.
   */
  readonly attachments?: readonly AttachedFile[];
}

/** A person pressing a button under a bot's message. */
export interface DiscordButtonPress {
  /** The pressed button's custom_id; one of the message's buttons must have it. */
  readonly customId: string;
  /** The message the button is under, e.g. from `conversation`; its stored state goes into the interaction. */
  readonly message: DiscordMessage;
  /** Who presses; default the fake's human `user`. */
  readonly user?: DiscordUser;
  /** Token of the bot the interaction goes to; default the bot that sent the message. */
  readonly bot?: string;
}

/** Handle to a running fake Discord (REST + gateway). */
export interface FakeDiscord {
  /** Pass as discord.js `rest.api`: `http://127.0.0.1:PORT/api`. */
  readonly restApi: string;
  /** `ws://127.0.0.1:PORT/gateway`, also returned by `GET /gateway/bot`. */
  readonly gatewayUrl: string;
  /** Token of the first bot. */
  readonly token: string;
  readonly bots: readonly DiscordBotAccount[];
  /** The (first) guild every bot is in, with its channels. */
  readonly guild: FakeGuild;
  /**
   * Every guild (`guilds` option), the first being `guild`. A guild's events go to the bot's session on shard
   * `(guild_id >> 22) % shard count`; DMs to shard 0 (as on Discord).
   */
  readonly guilds: readonly FakeGuild[];
  /** The default human author. */
  readonly user: DiscordUser;
  /** Another bot (not driven by a token) that can post messages. */
  readonly otherBot: DiscordUser;
  /** Every REST call and gateway IDENTIFY/RESUME, in arrival order. */
  readonly calls: readonly RecordedCall[];
  callsTo(method: string): readonly RecordedCall[];
  waitFor(predicate: CallPredicate, timeoutMs?: number): Promise<RecordedCall>;
  /** The `count`-th call of `method` (1-based, default 1). */
  waitForCall(method: string, count?: number, timeoutMs?: number): Promise<RecordedCall>;
  /** Resolves once the bot (default the first) has an open gateway session on `shard` (default 0). */
  waitForSession(bot?: string, timeoutMs?: number, shard?: number): Promise<void>;
  /**
   * The shard ids of the bot's open gateway sockets (default the first bot), sorted; a shard connected twice
   * appears twice. IDENTIFY and RESUME calls (`gateway.identify`, `gateway.resume`) carry `shard` in the call log.
   */
  connectedShards(bot?: string): number[];
  /** Makes the next matching REST call(s) fail with 429 (`retry_after`) or a 5xx. */
  failNext(fault: FaultSpec): void;
  /** DM from `author` to a bot. */
  injectDm(inbound: DiscordInbound): Promise<Delivery<DiscordMessage>>;
  /** Message in a guild channel (default `general`), seen by every bot. */
  injectChannelMessage(inbound: DiscordInbound & { readonly channelId?: string }): Promise<Delivery<DiscordMessage>>;
  /** Guild message starting with `<@botId>` with the bot in `mentions`. */
  injectMention(inbound: DiscordInbound & { readonly channelId?: string }): Promise<Delivery<DiscordMessage>>;
  /** Reply (type 19, `message_reference`) to an earlier message, e.g. one the bot sent. */
  injectReply(inbound: DiscordInbound & { readonly to: DiscordMessage }): Promise<Delivery<DiscordMessage>>;
  /** Message in a thread (default `guild.thread`; `guild.forumPost` is a forum post). */
  injectThreadMessage(inbound: DiscordInbound & { readonly threadId?: string }): Promise<Delivery<DiscordMessage>>;
  /** Guild message authored by `otherBot`. */
  injectBotMessage(
    inbound: Omit<DiscordInbound, "author"> & { readonly channelId?: string },
  ): Promise<Delivery<DiscordMessage>>;
  /** Slash command (INTERACTION_CREATE, type 2) to one bot, in a guild channel or a DM. */
  injectSlashCommand(inbound: {
    readonly name: string;
    readonly options?: ReadonlyArray<{ name: string; type: number; value: string | number | boolean }>;
    readonly channelId?: string;
    readonly inDm?: boolean;
    readonly user?: DiscordUser;
    readonly bot?: string;
  }): Promise<Delivery<DiscordInteraction>>;
  /**
   * Button press (INTERACTION_CREATE, type 3 MESSAGE_COMPONENT) under a bot's message, in that message's channel;
   * `item.callbackType` shows how the bot acknowledged it (6 deferred update, 7 update, 4/5 reply).
   * Rejects with TypeError when the message is unknown or has no button with that custom_id.
   */
  injectButtonPress(press: DiscordButtonPress): Promise<Delivery<DiscordInteraction>>;
  /**
   * Cuts the bot's gateway connection without a close frame. The client RESUMEs; events
   * dispatched meanwhile are replayed, plus the last `replayDelivered` events it already had.
   * With `resumable: false` the session is gone: RESUME gets op 9 INVALID_SESSION and the
   * client IDENTIFYs again (events dispatched meanwhile are lost, as on Discord).
   */
  dropConnection(options?: {
    readonly bot?: string;
    /** The shard whose connection is cut. Default 0. */
    readonly shard?: number;
    readonly replayDelivered?: number;
    readonly resumable?: boolean;
  }): boolean;
  /** The bot's (default the first) `session_start_limit` as `GET /gateway/bot` reports it now. */
  sessionStartLimit(bot?: string): SessionStartLimitView & { readonly max_concurrency: number };
  /** Changes the bot's (default the first) daily IDENTIFY budget; fields left out keep their value. */
  setSessionStartLimit(limit: SessionStartLimitSpec, bot?: string): void;
  /**
   * The next RESUME of the bot's session on `shard` (default 0) sends its replay, then waits for `release` before
   * RESUMED. `replayed` resolves when the replay has been sent. Meanwhile new events of the shard go to its current
   * session (another socket), as on Discord.
   */
  holdResumed(options?: { readonly bot?: string; readonly shard?: number }): {
    readonly replayed: Promise<void>;
    release(): void;
  };
  /**
   * Resolves once the client connected on the bot's current session of `shard` (default 0) sent a heartbeat carrying
   * the session's latest sequence: it has read every event dispatched to it so far.
   */
  waitForHeartbeat(options?: {
    readonly bot?: string;
    readonly shard?: number;
    readonly timeoutMs?: number;
  }): Promise<void>;
  /** Sends op 7 RECONNECT to the bot. */
  requestReconnect(options?: { readonly bot?: string; readonly shard?: number }): boolean;
  /** The DM channel between a bot (default first) and a user (default `user`). */
  dmChannel(bot?: string, user?: DiscordUser): DiscordChannel;
  /** Messages of one channel, oldest first (inbound and bot-sent). */
  conversation(channelId: string): DiscordMessage[];
  /**
   * Files bots attached to messages they created, oldest first: the bytes as they arrived and the `attachments` entry
   * (id, filename, size, content_type, a CDN `url` that serves them). A repeat refused by its nonce adds none.
   */
  sentFiles(): DiscordSentFile[];
  /** Application commands the bot registered (global unless `guildId`). */
  registeredCommands(bot?: string, guildId?: string): ReadonlyArray<Record<string, unknown>>;
  /** Closes the REST server and every gateway socket. */
  close(): Promise<void>;
}
