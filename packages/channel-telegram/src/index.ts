import type { Channel } from "@chorus/channel";
import { TelegramChannel, type TelegramChannelOptions } from "./telegram-channel.js";

export {
  TELEGRAM_CAPABILITIES,
  TelegramChannel,
  type TelegramChannelOptions,
  type TelegramWebhookOptions,
} from "./telegram-channel.js";
export { toTelegramChannelError } from "./telegram-errors.js";
export { TELEGRAM_MAX_PHOTO_BYTES, TELEGRAM_MAX_UPLOAD_BYTES } from "./telegram-send-file.js";

/**
 * A Telegram bot as a Channel (long polling or webhook). grammy is loaded when the channel starts.
 * Contract: throws ChannelOptionsError for missing options; see TelegramChannel.
 */
export function createTelegramChannel(options: TelegramChannelOptions): TelegramChannel & Channel {
  return new TelegramChannel(options);
}
