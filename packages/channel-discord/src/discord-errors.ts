import { ChannelError } from "@chorus/channel";

// Discord JSON error codes: https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
const UNKNOWN_CODES = new Set([10003, 10008, 10015, 10062]);
const EDIT_WINDOW_EXPIRED = 30046;
const INVALID_FORM_BODY = 50035;
const ENTITY_TOO_LARGE = 40005;

interface DiscordFailure {
  name?: unknown;
  status?: unknown;
  code?: unknown;
  retryAfter?: unknown;
  message?: unknown;
}

/**
 * Maps an error thrown by @discordjs/rest (DiscordAPIError, HTTPError, RateLimitError, fetch failures) to a
 * ChannelError.
 * Contract: never throws; an error that already is a ChannelError is returned as is.
 */
export function toDiscordChannelError(error: unknown, operation: string): ChannelError {
  if (error instanceof ChannelError) return error;
  const failure = (typeof error === "object" && error !== null ? error : {}) as DiscordFailure;
  const status = typeof failure.status === "number" ? failure.status : undefined;
  const code = typeof failure.code === "number" ? failure.code : undefined;
  const detail = typeof failure.message === "string" ? failure.message : String(error);
  const message = `discord ${operation} failed: ${detail}`;
  const options = { cause: error };
  if (failure.name === "RateLimitError" || status === 429) {
    const retryAfterMs = typeof failure.retryAfter === "number" ? failure.retryAfter : undefined;
    return new ChannelError(
      "rate-limited",
      message,
      retryAfterMs === undefined ? options : { ...options, retryAfterMs },
    );
  }
  if (code === EDIT_WINDOW_EXPIRED) return new ChannelError("edit-window-expired", message, options);
  // 413 / 40005 "Request entity too large": an attachment over the upload limit.
  if (status === 413 || code === ENTITY_TOO_LARGE) return new ChannelError("too-long", message, options);
  if (code === INVALID_FORM_BODY && /length/i.test(JSON.stringify((error as { rawError?: unknown }).rawError ?? ""))) {
    return new ChannelError("too-long", message, options);
  }
  if (status === 404 || (code !== undefined && UNKNOWN_CODES.has(code))) {
    return new ChannelError("not-found", message, options);
  }
  if (status === 401 || status === 403) return new ChannelError("forbidden", message, options);
  if (status === undefined || status >= 500) return new ChannelError("network", message, options);
  return new ChannelError("unknown", message, options);
}
