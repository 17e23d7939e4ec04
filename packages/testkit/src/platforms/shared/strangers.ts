import type { DiscordUser } from "../discord/index.js";
import type { SlackUser } from "../slack/index.js";
import type { TgUser } from "../telegram/index.js";

/**
 * A person on each platform who is neither an admin nor the one who asked: what tests refuse.
 * Contract: ids no fake hands out to its own users or bots.
 */
export const DISCORD_STRANGER: DiscordUser = {
  id: "1000000000000000999",
  username: "mallory",
  discriminator: "0",
  global_name: null,
  avatar: null,
};

export const SLACK_STRANGER: SlackUser = { id: "U0MALLORY", name: "mallory", isBot: false };

export const TELEGRAM_STRANGER: TgUser = { id: 3003, is_bot: false, first_name: "Mallory" };
