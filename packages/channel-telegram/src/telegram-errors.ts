import { ChannelError } from "@chorus/channel";

interface TelegramFailure {
  name?: unknown;
  error_code?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown };
  message?: unknown;
}

/**
 * Maps a grammy error (GrammyError with the Bot API's error_code and description, HttpError for the network) to
 * a ChannelError.
 * Contract: never throws; an error that already is a ChannelError is returned as is.
 */
export function toTelegramChannelError(error: unknown, operation: string): ChannelError {
  if (error instanceof ChannelError) return error;
  const failure = (typeof error === "object" && error !== null ? error : {}) as TelegramFailure;
  const code = typeof failure.error_code === "number" ? failure.error_code : undefined;
  const description = typeof failure.description === "string" ? failure.description : "";
  const detail = description || (typeof failure.message === "string" ? failure.message : String(error));
  const message = `telegram ${operation} failed: ${detail}`;
  const options = { cause: error };
  if (code === undefined)
    return new ChannelError(failure.name === "HttpError" ? "network" : "unknown", message, options);
  if (code === 429) {
    const seconds = failure.parameters?.retry_after;
    return new ChannelError(
      "rate-limited",
      message,
      typeof seconds === "number" ? { ...options, retryAfterMs: seconds * 1000 } : options,
    );
  }
  // 413 "Request Entity Too Large": an upload over the Bot API's limit.
  if (code === 413 || /too long/i.test(description)) return new ChannelError("too-long", message, options);
  if (/not found/i.test(description)) return new ChannelError("not-found", message, options);
  if (code === 401 || code === 403) return new ChannelError("forbidden", message, options);
  if (code >= 500) return new ChannelError("network", message, options);
  return new ChannelError("unknown", message, options);
}

/** Contract: whether a Bot API error only says an edit changed nothing (which is not a failure). */
export function isNotModified(error: unknown): boolean {
  const description = (error as TelegramFailure | undefined)?.description;
  return typeof description === "string" && /message is not modified/i.test(description);
}
