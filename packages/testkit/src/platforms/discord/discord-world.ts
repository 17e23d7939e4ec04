import { ConversationStore } from "../shared/conversation-store.js";
import { DiscordFiles } from "./discord-files.js";
import type {
  DiscordBotAccount,
  DiscordChannel,
  DiscordInteraction,
  DiscordMessage,
  DiscordUser,
} from "./discord-types.js";
import type { GatewaySession } from "./gateway-session.js";
import { DiscordUploads } from "./rest-uploads.js";
import { SessionStartLimit, type SessionStartLimitSpec } from "./session-start-limit.js";
import { type SnowflakeGenerator, snowflakeTime } from "./snowflake.js";

/** Gateway intents the fake honours (bit values from the Discord docs). */
export const Intent = {
  GuildMessages: 1 << 9,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

/** Builds a user object. */
export function discordUser(id: string, username: string, bot = false): DiscordUser {
  const user: DiscordUser = { id, username, discriminator: "0", global_name: username, avatar: null };
  if (bot) user.bot = true;
  return user;
}

/** Guild layout the fake creates: one guild, two text channels, a thread, a forum with one post. */
export interface FakeGuild {
  readonly id: string;
  readonly name: string;
  readonly general: DiscordChannel;
  readonly random: DiscordChannel;
  readonly thread: DiscordChannel;
  readonly forum: DiscordChannel;
  readonly forumPost: DiscordChannel;
  /** Every guild text channel: `general`, `random`, then the extra ones asked for. */
  readonly textChannels: readonly DiscordChannel[];
}

/**
 * Everything the fake Discord knows: bots, the guild, channels, messages, sessions, interactions.
 * Contract: every lookup used per message is a map lookup; message ids are snowflakes.
 */
export class DiscordWorld {
  readonly ids: SnowflakeGenerator;
  readonly bots = new Map<string, DiscordBotAccount>();
  readonly channels = new Map<string, DiscordChannel>();
  readonly messages = new ConversationStore<DiscordMessage>();
  /** The files people attached, behind expiring CDN links (the fake sets its TTL and origin). */
  files = new DiscordFiles(86_400_000);
  /** The files bots upload with their messages, and the limit they are held to. */
  readonly uploads = new DiscordUploads();
  readonly sessions = new Map<string, GatewaySession>();
  /** Latest session per bot user id and shard (`sessionSlot`). */
  readonly currentSession = new Map<string, GatewaySession>();
  readonly interactions = new Map<string, DiscordInteraction>();
  readonly commands = new Map<string, Array<Record<string, unknown>>>();
  readonly #dmChannels = new Map<string, DiscordChannel>();
  readonly #dmOwnerByChannel = new Map<string, DiscordBotAccount>();
  readonly human: DiscordUser;
  readonly otherBot: DiscordUser;
  readonly guild: FakeGuild;

  /** Every guild the bots are in; the first is `guild`. Guild `i` is on shard `i % N` for any shard count N ≤ 10. */
  readonly guilds: readonly FakeGuild[];
  /** What `GET /gateway/bot` recommends: the shard count and how many shards may IDENTIFY at once. */
  readonly gatewayBot: { readonly shards: number; readonly maxConcurrency: number };
  /** Each bot's daily IDENTIFY budget (`session_start_limit`), by bot user id. */
  readonly #sessionStartLimits = new Map<string, SessionStartLimit>();

  /** `ids` must be the generator the bot accounts' ids came from, so no two ids collide. */
  constructor(
    accounts: readonly DiscordBotAccount[],
    extraTextChannels: number,
    ids: SnowflakeGenerator,
    sharding: {
      readonly guilds?: number;
      readonly shards?: number;
      readonly maxConcurrency?: number;
      readonly sessionStartLimit?: SessionStartLimitSpec;
    } = {},
  ) {
    this.ids = ids;
    for (const account of accounts) {
      this.bots.set(account.token, account);
      this.#sessionStartLimits.set(account.user.id, new SessionStartLimit(sharding.sessionStartLimit));
    }
    this.human = discordUser(this.ids.next(), "alice");
    this.otherBot = discordUser(this.ids.next(), "other-bot", true);
    this.gatewayBot = { shards: sharding.shards ?? 1, maxConcurrency: sharding.maxConcurrency ?? 1 };
    this.guilds = Array.from({ length: Math.max(1, sharding.guilds ?? 1) }, (_, index) =>
      this.#createGuild(index, index === 0 ? extraTextChannels : 0),
    );
    this.guild = this.guilds[0] as FakeGuild;
  }

  /** A bot's daily IDENTIFY budget. */
  sessionStartLimit(bot: DiscordBotAccount): SessionStartLimit {
    let limit = this.#sessionStartLimits.get(bot.user.id);
    if (limit === undefined) {
      limit = new SessionStartLimit();
      this.#sessionStartLimits.set(bot.user.id, limit);
    }
    return limit;
  }

  /** Guild `index` with its channels, indexed; its id is on shard `index % N` for every shard count N ≤ 10. */
  #createGuild(index: number, extraTextChannels: number): FakeGuild {
    const guildId = shardedGuildId(index);
    const text = (name: string): DiscordChannel => ({
      id: this.ids.next(),
      type: 0,
      name,
      guild_id: guildId,
      position: 0,
      permission_overwrites: [],
      parent_id: null,
      topic: null,
      nsfw: false,
      last_message_id: null,
      rate_limit_per_user: 0,
    });
    const general = text("general");
    const random = text("random");
    const extra = Array.from({ length: extraTextChannels }, (_, i) => text(`channel-${i + 3}`));
    const forum: DiscordChannel = { ...text("forum"), type: 15, available_tags: [], default_reaction_emoji: null };
    const thread = (name: string, parent: DiscordChannel) =>
      threadChannel(this.ids.next(), parent, name, this.human.id);
    const guild: FakeGuild = {
      id: guildId,
      name: index === 0 ? "Fake Guild" : `Fake Guild ${index + 1}`,
      general,
      random,
      forum,
      thread: thread("a thread", general),
      forumPost: thread("a forum post", forum),
      textChannels: [general, random, ...extra],
    };
    for (const channel of [...guild.textChannels, forum, guild.thread, guild.forumPost]) {
      this.channels.set(channel.id, channel);
    }
    return guild;
  }

  guildById(id: string | undefined): FakeGuild | undefined {
    return this.guilds.find((guild) => guild.id === id);
  }

  /** The current session of `bot` that receives events of `guildId` (`undefined`: a DM, shard 0), if connected. */
  sessionFor(bot: DiscordBotAccount, guildId: string | undefined): GatewaySession | undefined {
    for (const session of this.currentSession.values()) {
      if (session.bot.user.id === bot.user.id && session.shard[0] === shardOf(guildId, session.shard[1]))
        return session;
    }
    return undefined;
  }

  /** Creates a public thread under a guild channel (id = starter message id when given) and indexes it. */
  addThread(parent: DiscordChannel, name: string, ownerId: string, starterMessageId?: string): DiscordChannel {
    const thread = threadChannel(starterMessageId ?? this.ids.next(), parent, name, ownerId);
    this.channels.set(thread.id, thread);
    return thread;
  }

  botByUserId(userId: string): DiscordBotAccount | undefined {
    for (const bot of this.bots.values()) if (bot.user.id === userId) return bot;
    return undefined;
  }

  /** The DM channel between a bot and a user, created on first use. */
  dmChannel(bot: DiscordBotAccount, user: DiscordUser): DiscordChannel {
    const key = `${bot.user.id}:${user.id}`;
    let channel = this.#dmChannels.get(key);
    if (!channel) {
      channel = { id: this.ids.next(), type: 1, recipients: [user], last_message_id: null, flags: 0 };
      this.#dmChannels.set(key, channel);
      this.#dmOwnerByChannel.set(channel.id, bot);
      this.channels.set(channel.id, channel);
    }
    return channel;
  }

  /** The bot a DM channel belongs to, if `channelId` is a DM. */
  dmOwner(channelId: string): DiscordBotAccount | undefined {
    return this.#dmOwnerByChannel.get(channelId);
  }

  guildCreatePayload(bot: DiscordBotAccount, guild: FakeGuild = this.guild): Record<string, unknown> {
    const joinedAt = new Date().toISOString();
    const member = (user: DiscordUser) => ({
      user,
      roles: [],
      joined_at: joinedAt,
      deaf: false,
      mute: false,
      flags: 0,
    });
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      owner_id: this.human.id,
      unavailable: false,
      joined_at: joinedAt,
      large: false,
      member_count: 2 + this.bots.size,
      channels: [...guild.textChannels, guild.forum],
      threads: [guild.thread, guild.forumPost],
      members: [member(bot.user), member(this.human)],
      roles: [
        {
          id: guild.id,
          name: "@everyone",
          permissions: "8",
          position: 0,
          color: 0,
          hoist: false,
          managed: false,
          mentionable: false,
          flags: 0,
        },
      ],
      emojis: [],
      stickers: [],
      presences: [],
      voice_states: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
      features: [],
      preferred_locale: "en-US",
      system_channel_id: guild.general.id,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      mfa_level: 0,
      nsfw_level: 0,
      premium_tier: 0,
      premium_subscription_count: 0,
      application_id: null,
      max_members: 500000,
    };
  }

  /** Builds a message object (not stored). */
  buildMessage(channel: DiscordChannel, author: DiscordUser, fields: Partial<DiscordMessage>): DiscordMessage {
    const id = this.ids.next();
    const message: DiscordMessage = {
      id,
      type: 0,
      channel_id: channel.id,
      author,
      content: "",
      timestamp: snowflakeTime(id),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      components: [],
      pinned: false,
      flags: 0,
      ...fields,
    };
    if (channel.guild_id !== undefined) message.guild_id = channel.guild_id;
    return message;
  }

  store(message: DiscordMessage): DiscordMessage {
    this.messages.add(message.channel_id, message.id, message);
    const channel = this.channels.get(message.channel_id);
    if (channel) channel.last_message_id = message.id;
    return message;
  }

  /**
   * The gateway payload of a message for one bot: DM messages carry `channel_type`, guild
   * messages carry `member`, and without the MESSAGE_CONTENT intent content is blanked
   * unless the message is a DM or mentions that bot (as on Discord).
   */
  messagePayloadFor(session: GatewaySession, message: DiscordMessage): DiscordMessage | undefined {
    const channel = this.channels.get(message.channel_id);
    const isDm = channel?.type === 1;
    const needed = isDm ? Intent.DirectMessages : Intent.GuildMessages;
    if ((session.intents & needed) === 0) return undefined;
    const payload: DiscordMessage = { ...message, channel_type: channel?.type ?? 0 };
    if (!isDm) {
      payload.member = { roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 };
    }
    const own = message.author.id === session.bot.user.id;
    const mentioned = message.mentions.some((u) => u.id === session.bot.user.id);
    if (!isDm && !own && !mentioned && (session.intents & Intent.MessageContent) === 0) {
      payload.content = "";
      payload.embeds = [];
      payload.attachments = [];
      payload.components = [];
    }
    return payload;
  }

  /**
   * Sessions that can see a channel: the owning bot's shard-0 session for DMs, for guild channels every bot's session
   * of the guild's shard (`(guild_id >> 22) % shard count`).
   */
  sessionsFor(channelId: string): GatewaySession[] {
    const channel = this.channels.get(channelId);
    if (channel?.type === 1) {
      const owner = this.dmOwner(channelId);
      const session = owner ? this.sessionFor(owner, undefined) : undefined;
      return session ? [session] : [];
    }
    return [...this.bots.values()].flatMap((bot) => {
      const session = this.sessionFor(bot, channel?.guild_id);
      return session ? [session] : [];
    });
  }

  /** Dispatches MESSAGE_CREATE / MESSAGE_UPDATE to every session that sees the channel; returns how many. */
  broadcastMessage(type: "MESSAGE_CREATE" | "MESSAGE_UPDATE", message: DiscordMessage): number {
    let count = 0;
    for (const session of this.sessionsFor(message.channel_id)) {
      const payload = this.messagePayloadFor(session, message);
      if (!payload) continue;
      session.dispatch(type, payload);
      count += 1;
    }
    return count;
  }
}

/** The key of a bot's current session on one shard in `DiscordWorld.currentSession`. */
export function sessionSlot(botUserId: string, shardId: number): string {
  return `${botUserId}:${shardId}`;
}

/** The shard that receives a guild's events, as Discord computes it; DMs (no guild) go to shard 0. */
export function shardOf(guildId: string | undefined, shardCount: number): number {
  if (guildId === undefined) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(Math.max(1, shardCount)));
}

/** 2520 = lcm(1…10): a stamp that is a multiple of it plus `index` is `index` modulo every shard count up to 10. */
const SHARD_SPREAD = 2520n;
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/** A guild id whose timestamp puts guild `index` on shard `index % N` (N ≤ 10); in the past, so never generated. */
function shardedGuildId(index: number): string {
  const stamp = BigInt(Date.now()) - DISCORD_EPOCH_MS;
  const base = (stamp / SHARD_SPREAD - 1n) * SHARD_SPREAD;
  return ((base + BigInt(index)) << 22n).toString();
}

/** A public thread channel object (type 11). */
function threadChannel(id: string, parent: DiscordChannel, name: string, ownerId: string): DiscordChannel {
  const thread: DiscordChannel = {
    id,
    type: 11,
    name,
    parent_id: parent.id,
    owner_id: ownerId,
    last_message_id: null,
    message_count: 0,
    member_count: 1,
    rate_limit_per_user: 0,
    flags: 0,
    thread_metadata: {
      archived: false,
      auto_archive_duration: 1440,
      archive_timestamp: new Date().toISOString(),
      locked: false,
    },
  };
  if (parent.guild_id !== undefined) thread.guild_id = parent.guild_id;
  return thread;
}
