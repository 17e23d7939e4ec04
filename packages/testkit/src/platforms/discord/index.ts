export type { AttachedFile, DiscordAttachment } from "./discord-files.js";
export type {
  DiscordBotSpec,
  DiscordButtonPress,
  DiscordInbound,
  FakeDiscord,
  FakeDiscordOptions,
} from "./discord-handle.js";
export type {
  DiscordBotAccount,
  DiscordChannel,
  DiscordInteraction,
  DiscordMessage,
  DiscordUser,
} from "./discord-types.js";
export type { FakeGuild } from "./discord-world.js";
export { startFakeDiscord } from "./fake-discord.js";
export { DISCORD_DEFAULT_UPLOAD_BYTES, type DiscordSentFile } from "./rest-uploads.js";
export type { SessionStartLimitSpec, SessionStartLimitView } from "./session-start-limit.js";
