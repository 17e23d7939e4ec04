export type { TelegramSentFile, TelegramUploadLimits } from "./bot-api-uploads.js";
export { startFakeTelegram } from "./fake-telegram.js";
export type { TgFile } from "./telegram-files.js";
export type { FakeTelegram, FakeTelegramOptions, TelegramBotSpec, TelegramInbound } from "./telegram-handle.js";
export type {
  TelegramBotAccount,
  TgCallbackQuery,
  TgChat,
  TgEntity,
  TgMediaKind,
  TgMessage,
  TgUpdate,
  TgUser,
} from "./telegram-types.js";
export type { WebhookRetry } from "./webhook-sender.js";
