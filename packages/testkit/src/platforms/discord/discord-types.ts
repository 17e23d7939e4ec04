/** Discord user object (subset). */
export interface DiscordUser {
  id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  avatar: string | null;
  bot?: boolean;
}

/** Discord channel object (subset): guild text (0), DM (1), public thread (11), forum (15). */
export interface DiscordChannel {
  id: string;
  type: 0 | 1 | 11 | 15;
  name?: string;
  guild_id?: string;
  parent_id?: string | null;
  recipients?: DiscordUser[];
  [key: string]: unknown;
}

/** Discord message object as REST returns it and the gateway dispatches it. */
export interface DiscordMessage {
  id: string;
  type: number;
  channel_id: string;
  guild_id?: string;
  author: DiscordUser;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  tts: boolean;
  mention_everyone: boolean;
  mentions: DiscordUser[];
  mention_roles: string[];
  attachments: unknown[];
  embeds: unknown[];
  components: unknown[];
  pinned: boolean;
  flags: number;
  message_reference?: { message_id: string; channel_id: string; guild_id?: string };
  referenced_message?: DiscordMessage | null;
  [key: string]: unknown;
}

/** One bot account on the fake, keyed by its token. */
export interface DiscordBotAccount {
  readonly token: string;
  readonly user: DiscordUser;
  readonly applicationId: string;
}

/** An interaction the fake created (slash command), with what the bot answered. */
export interface DiscordInteraction {
  readonly id: string;
  readonly token: string;
  readonly applicationId: string;
  readonly channelId: string;
  readonly guildId: string | undefined;
  readonly botToken: string;
  /** Command name and invoking user, echoed in `interaction_metadata` of response messages. */
  readonly commandName: string;
  readonly user: DiscordUser;
  /** Callback type the bot answered with (4 reply, 5 deferred), once it did. */
  callbackType: number | undefined;
  /** The response message (`@original`), once there is one. */
  original: DiscordMessage | undefined;
}
