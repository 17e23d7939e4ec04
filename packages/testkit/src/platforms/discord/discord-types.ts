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

/** An interaction the fake created (slash command or button press), with what the bot answered. */
export interface DiscordInteraction {
  readonly id: string;
  readonly token: string;
  /** 2 APPLICATION_COMMAND (a slash command), 3 MESSAGE_COMPONENT (a button press). */
  readonly type: 2 | 3;
  readonly applicationId: string;
  readonly channelId: string;
  readonly guildId: string | undefined;
  readonly botToken: string;
  /** Command name (empty for a button press) and invoking user, echoed in `interaction_metadata` of responses. */
  readonly commandName: string;
  readonly user: DiscordUser;
  /** The pressed button's `custom_id` (type 3 only). */
  readonly customId?: string;
  /** The message the pressed button is under (type 3 only); callbacks 6 and 7 make it `@original`. */
  readonly message?: DiscordMessage;
  /**
   * Callback type the bot answered with, once it did: 4 reply, 5 deferred reply, 6 deferred update (a button press
   * acknowledged without a visible answer), 7 update of the button's message.
   */
  callbackType: number | undefined;
  /** The response message (`@original`), once there is one. */
  original: DiscordMessage | undefined;
}
