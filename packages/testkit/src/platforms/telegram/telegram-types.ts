/** Telegram Bot API user (subset the fake produces). */
export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
  language_code?: string;
}

/** Telegram chat: private, group, supergroup (forum or not) or channel. */
export interface TgChat {
  id: number;
  type: "private" | "group" | "supergroup" | "channel";
  title?: string;
  first_name?: string;
  username?: string;
  is_forum?: true;
}

/** Telegram message entity (mention, bot_command, ...). */
export interface TgEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
}

/** Telegram message as the Bot API returns and delivers it. */
export interface TgMessage {
  message_id: number;
  date: number;
  chat: TgChat;
  from?: TgUser;
  sender_chat?: TgChat;
  text?: string;
  entities?: TgEntity[];
  message_thread_id?: number;
  is_topic_message?: true;
  reply_to_message?: TgMessage;
  edit_date?: number;
  reply_markup?: unknown;
  /** Media a person sends (with bytes given to `injectMedia`, the file is served: `getFile`, the file route). */
  caption?: string;
  /** Entities of a caption the bot sent with `parse_mode` (as `entities` for text). */
  caption_entities?: TgEntity[];
  photo?: { file_id: string; file_unique_id: string; width: number; height: number; file_size?: number }[];
  document?: { file_id: string; file_unique_id: string; file_name?: string; mime_type?: string; file_size?: number };
  voice?: { file_id: string; file_unique_id: string; duration: number; mime_type?: string };
  sticker?: {
    file_id: string;
    file_unique_id: string;
    type: "regular";
    width: number;
    height: number;
    emoji?: string;
    /** A `.tgs` (Lottie) sticker, or a `.webm` video sticker; neither is a static WebP image. */
    is_animated?: boolean;
    is_video?: boolean;
    file_size?: number;
  };
  audio?: { file_id: string; file_unique_id: string; duration: number; file_name?: string; mime_type?: string };
  video?: {
    file_id: string;
    file_unique_id: string;
    duration: number;
    width: number;
    height: number;
    mime_type?: string;
  };
  /** Items of one album (photos/videos/documents sent together) share it, one update each. */
  media_group_id?: string;
}

/** Kinds of media message `injectMedia` sends. */
export type TgMediaKind = "photo" | "voice" | "sticker" | "document" | "audio" | "video";

/** Telegram callback query (inline button press). */
export interface TgCallbackQuery {
  id: string;
  from: TgUser;
  chat_instance: string;
  data?: string;
  message?: TgMessage;
}

/** Telegram update. */
export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  edited_message?: TgMessage;
  channel_post?: TgMessage;
  callback_query?: TgCallbackQuery;
}

/** One bot account on the fake, keyed by its token. */
export interface TelegramBotAccount {
  readonly token: string;
  readonly user: TgUser;
}
