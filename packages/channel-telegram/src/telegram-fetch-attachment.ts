import type { AttachmentLocation, FetchAttachmentOptions, FetchedAttachment } from "@chorus/channel";
import { AttachmentFetchError, ChannelError, downloadBounded } from "@chorus/channel";

/** What `getFile` answers (the fields used). */
export interface TelegramFileInfo {
  readonly file_path?: string;
  readonly file_size?: number;
}

/** Where and how a Telegram bot downloads files. */
export interface TelegramFileSource {
  /** The Bot API root the bot talks to (Telegram's, a local Bot API server, a test's fake): files come from it only. */
  readonly apiRoot: string;
  readonly token: string;
  getFile(fileId: string, signal?: AbortSignal): Promise<TelegramFileInfo>;
}

/**
 * Downloads a file someone sent the bot: `getFile(file_id)` for its path, then `<apiRoot>/file/bot<token>/<path>`.
 * A size `getFile` declares over `maxBytes` is refused before any download; Telegram's own refusal of a file over the
 * Bot API's 20 MB download limit is `too-large` too.
 * Contract: rejects with AttachmentFetchError; the token is never part of an error's message.
 */
export async function fetchTelegramAttachment(
  source: TelegramFileSource,
  location: AttachmentLocation,
  options: FetchAttachmentOptions,
): Promise<FetchedAttachment> {
  let file: TelegramFileInfo;
  try {
    file = await source.getFile(location.id, options.signal);
  } catch (error) {
    throw getFileFailure(error);
  }
  if (file.file_size !== undefined && file.file_size > options.maxBytes) {
    throw new AttachmentFetchError("too-large", `the file is ${file.file_size} bytes, over ${options.maxBytes}`);
  }
  if (file.file_path === undefined || file.file_path === "") {
    throw new AttachmentFetchError("not-found", "Telegram gave no path to download the file from");
  }
  const root = source.apiRoot.replace(/\/+$/, "");
  const path = file.file_path.split("/").map(encodeURIComponent).join("/");
  return downloadBounded(`${root}/file/bot${source.token}/${path}`, {
    allowedOrigins: [new URL(root).origin],
    maxBytes: options.maxBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

function getFileFailure(error: unknown): AttachmentFetchError {
  if (error instanceof AttachmentFetchError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // A ChannelError's message already says which call failed.
  const text = error instanceof ChannelError ? message : `telegram getFile failed: ${message}`;
  if (/file is too big/i.test(message)) return new AttachmentFetchError("too-large", text, { cause: error });
  if (/file_id|file identifier|not found/i.test(message)) {
    return new AttachmentFetchError("not-found", text, { cause: error });
  }
  if (error instanceof ChannelError) {
    if (error.kind === "forbidden") return new AttachmentFetchError("forbidden", text, { cause: error });
    if (error.kind === "not-found") return new AttachmentFetchError("not-found", text, { cause: error });
  }
  return new AttachmentFetchError("network", text, { cause: error });
}
