import type { Channel } from "@chorus/channel";
import { DiscordChannel, type DiscordChannelOptions } from "./discord-channel.js";

export {
  DISCORD_CAPABILITIES,
  DISCORD_EDIT_WINDOW_MS,
  DISCORD_GLOBAL_REQUESTS_PER_SECOND,
  DiscordChannel,
  type DiscordChannelOptions,
} from "./discord-channel.js";
export { DISCORD_DEFER_AFTER_MS } from "./discord-commands.js";
export { toDiscordChannelError } from "./discord-errors.js";
export { DISCORD_MAX_UPLOAD_BYTES } from "./discord-send-file.js";
export { snowflakeAt, snowflakeCreatedAt } from "./discord-snowflake.js";

/**
 * A Discord bot account as a Channel. discord.js is loaded when the channel starts.
 * Contract: throws ChannelOptionsError for missing options; see DiscordChannel.

 */
export function createDiscordChannel(options: DiscordChannelOptions): DiscordChannel & Channel {
  return new DiscordChannel(options);
}
