import type { Channel } from "../channel/channel-types.js";
import { DiscordChannel, type DiscordChannelOptions } from "./discord/index.js";
import { SlackChannel, type SlackChannelOptions } from "./slack/index.js";
import { TelegramChannel, type TelegramChannelOptions } from "./telegram/index.js";

export * from "./discord/index.js";
export { ChannelOptionsError } from "./shared/channel-options-error.js";
export { EditBudget } from "./shared/edit-budget.js";
export { NATIVE_COMMANDS, type NativeCommand } from "./shared/native-commands.js";
export * from "./slack/index.js";
export * from "./telegram/index.js";

/**
 * A Discord bot account as a Channel. discord.js is loaded when the channel starts.
 * Contract: throws ChannelOptionsError for missing options; see DiscordChannel.
 */
export function createDiscordChannel(options: DiscordChannelOptions): DiscordChannel & Channel {
  return new DiscordChannel(options);
}

/**
 * A Slack app as a Channel (Socket Mode or HTTP). @slack/bolt is loaded when the channel starts.
 * Contract: throws ChannelOptionsError for missing options; see SlackChannel.
 */
export function createSlackChannel(options: SlackChannelOptions): SlackChannel & Channel {
  return new SlackChannel(options);
}

/**
 * A Telegram bot as a Channel (long polling or webhook). grammy is loaded when the channel starts.
 * Contract: throws ChannelOptionsError for missing options; see TelegramChannel.
 */
export function createTelegramChannel(options: TelegramChannelOptions): TelegramChannel & Channel {
  return new TelegramChannel(options);
}
