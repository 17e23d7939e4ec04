export type { FakeTelegram, FakeTelegramOptions, TelegramBotSpec, TelegramInbound } from "./fake-telegram.js";
export { startFakeTelegram } from "./fake-telegram.js";
export type {
  TelegramBotAccount,
  TgCallbackQuery,
  TgChat,
  TgEntity,
  TgMessage,
  TgUpdate,
  TgUser,
} from "./telegram-types.js";
