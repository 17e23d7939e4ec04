import { ChannelError, type ChannelErrorKind } from "@chorus/channel";

// Slack Web API `error` strings, by what they mean for the reply layer.
const PLATFORM_ERRORS: Readonly<Record<string, ChannelErrorKind>> = {
  ratelimited: "rate-limited",
  msg_too_long: "too-long",
  msg_blocks_too_long: "too-long",
  channel_not_found: "not-found",
  message_not_found: "not-found",
  thread_not_found: "not-found",
  not_in_channel: "forbidden",
  is_archived: "forbidden",
  cant_update_message: "forbidden",
  cant_delete_message: "forbidden",
  restricted_action: "forbidden",
  not_authed: "forbidden",
  invalid_auth: "forbidden",
  account_inactive: "forbidden",
  missing_scope: "forbidden",
  edit_window_closed: "edit-window-expired",
};

interface SlackFailure {
  code?: unknown;
  data?: { error?: unknown };
  retryAfter?: unknown;
  statusCode?: unknown;
  message?: unknown;
}

/**
 * Maps an @slack/web-api error (platform error, rate limit, HTTP or request failure) to a ChannelError.
 * Contract: never throws; an error that already is a ChannelError is returned as is.
 */
export function toSlackChannelError(error: unknown, operation: string): ChannelError {
  if (error instanceof ChannelError) return error;
  const failure = (typeof error === "object" && error !== null ? error : {}) as SlackFailure;
  const detail = typeof failure.message === "string" ? failure.message : String(error);
  const message = `slack ${operation} failed: ${detail}`;
  const options = { cause: error };
  switch (failure.code) {
    case "slack_webapi_rate_limited_error": {
      const seconds = typeof failure.retryAfter === "number" ? failure.retryAfter : undefined;
      return new ChannelError(
        "rate-limited",
        message,
        seconds === undefined ? options : { ...options, retryAfterMs: seconds * 1000 },
      );
    }
    case "slack_webapi_platform_error": {
      const code = typeof failure.data?.error === "string" ? failure.data.error : "";
      return new ChannelError(PLATFORM_ERRORS[code] ?? "unknown", message, options);
    }
    case "slack_webapi_http_error": {
      const status = typeof failure.statusCode === "number" ? failure.statusCode : 0;
      if (status === 429) return new ChannelError("rate-limited", message, options);
      return new ChannelError(status >= 500 ? "network" : "unknown", message, options);
    }
    case "slack_webapi_request_error": {
      // The WebClient waits out each 429 itself; when its retries run out, the last one comes back as a request error
      // saying so.
      const limited = /rate limit was exceeded.*retry-after: (\d+)/i.exec(detail);
      if (limited !== null) {
        return new ChannelError("rate-limited", message, { ...options, retryAfterMs: Number(limited[1]) * 1000 });
      }
      return new ChannelError("network", message, options);
    }
    default:
      return new ChannelError("unknown", message, options);
  }
}

/** Contract: the Slack platform error string of a Web API failure, if it is one. */
export function slackPlatformError(error: unknown): string | undefined {
  const cause = error instanceof ChannelError ? error.cause : error;
  const data = (cause as SlackFailure | undefined)?.data;
  return typeof data?.error === "string" ? data.error : undefined;
}
