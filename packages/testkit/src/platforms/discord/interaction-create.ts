import { randomBytes } from "node:crypto";
import type { Delivery } from "../shared/delivery.js";
import type { DiscordBotAccount, DiscordChannel, DiscordInteraction, DiscordUser } from "./discord-types.js";
import type { DiscordWorld } from "./discord-world.js";

/** Who starts an interaction with which bot, where, and what kind it is. */
export interface InteractionOrigin {
  readonly bot: DiscordBotAccount;
  readonly user: DiscordUser;
  readonly where: DiscordChannel;
  /** 2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT. */
  readonly type: 2 | 3;
  /** The interaction's `data` as Discord sends it (command name and options, or the pressed custom_id). */
  readonly data: Record<string, unknown>;
  /** Fields only one kind carries: the command name, or the pressed button's custom_id and message. */
  readonly record: Pick<DiscordInteraction, "commandName" | "customId" | "message">;
  /** Extra top-level payload fields (a component interaction carries its `message`). */
  readonly extra?: Record<string, unknown>;
}

/**
 * Registers an interaction (so the bot's callback, follow-ups and webhook edits find it by token) and sends
 * INTERACTION_CREATE to the bot's current gateway session, shaped as Discord sends it: `member.user` in a guild,
 * `user` in a DM.
 * Contract: never throws; `ok: false` when the bot has no gateway session (the interaction stays registered).
 */
export function dispatchInteraction(world: DiscordWorld, origin: InteractionOrigin): Delivery<DiscordInteraction> {
  const { bot, user, where, type } = origin;
  const interaction: DiscordInteraction = {
    id: world.ids.next(),
    token: `aW50ZXJhY3Rpb24${randomBytes(24).toString("base64url")}`,
    type,
    applicationId: bot.applicationId,
    channelId: where.id,
    guildId: where.guild_id,
    botToken: bot.token,
    user,
    callbackType: undefined,
    original: undefined,
    ...origin.record,
  };
  world.interactions.set(interaction.token, interaction);
  const payload: Record<string, unknown> = {
    id: interaction.id,
    application_id: bot.applicationId,
    type,
    token: interaction.token,
    version: 1,
    data: origin.data,
    ...origin.extra,
    channel_id: where.id,
    channel: { id: where.id, type: where.type },
    locale: "en-US",
    app_permissions: "8",
    entitlements: [],
    authorizing_integration_owners: { "0": where.guild_id ?? user.id },
    context: where.guild_id === undefined ? 1 : 0,
    attachment_size_limit: 10_485_760,
  };
  if (where.guild_id !== undefined) {
    payload.guild_id = where.guild_id;
    payload.guild_locale = "en-US";
    payload.member = {
      user,
      roles: [],
      joined_at: new Date().toISOString(),
      deaf: false,
      mute: false,
      flags: 0,
      permissions: "8",
    };
  } else {
    payload.user = user;
  }
  const session = world.sessionFor(bot, where.guild_id);
  if (!session) return { ok: false, item: interaction, reason: "bot has no gateway session" };
  session.dispatch("INTERACTION_CREATE", payload);
  return { ok: true, item: interaction };
}
