export {
  TELEGRAM_CAPABILITIES,
  TelegramChannel,
  type TelegramChannelOptions,
  type TelegramWebhookOptions,
} from "./telegram-channel.js";
export { toTelegramChannelError } from "./telegram-errors.js";
