import type { AttachmentLocation, FetchAttachmentOptions, FetchedAttachment } from "@chorus/channel";
import { AttachmentFetchError, downloadBounded, originOf } from "@chorus/channel";

/** Where Slack serves the files people share (`url_private`). */
export const SLACK_FILES_ORIGIN = "https://files.slack.com";

/** The bot's credentials and where its Slack is. */
export interface SlackFileSource {
  readonly botToken: string;
  /** The configured Web API base (a test's fake serves files on its own origin); its origin is allowed too. */
  readonly slackApiUrl?: string;
}

/**
 * Downloads a shared file from its `url_private` with `Authorization: Bearer <bot token>`, from files.slack.com (or the
 * configured Slack API's origin) only: the token goes nowhere else. Without a token Slack accepts for the file (the
 * `files:read` scope missing, the file not shared where the app is) it sends its sign-in page instead, by a redirect:
 * that is `forbidden`, never the file.
 * Contract: rejects with AttachmentFetchError (`host-not-allowed` for any other host, without a request).
 */
export async function fetchSlackAttachment(
  source: SlackFileSource,
  location: AttachmentLocation,
  options: FetchAttachmentOptions,
): Promise<FetchedAttachment> {
  const url = location.url;
  if (url === undefined || url === "") {
    throw new AttachmentFetchError("unsupported", "a Slack file is downloaded from its url_private, and none was kept");
  }
  const allowedOrigins = [SLACK_FILES_ORIGIN];
  const apiOrigin = originOf(source.slackApiUrl);
  if (apiOrigin !== undefined) allowedOrigins.push(apiOrigin);
  const origin = originOf(url);
  if (origin === undefined || !allowedOrigins.includes(origin)) {
    throw new AttachmentFetchError(
      "host-not-allowed",
      `a Slack file is not downloaded from ${origin ?? "that address"}`,
    );
  }
  let fetched: FetchedAttachment;
  try {
    fetched = await downloadBounded(url, {
      allowedOrigins,
      maxBytes: options.maxBytes,
      headers: { authorization: `Bearer ${source.botToken}` },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    // The file's own host was allowed: it redirected elsewhere, which Slack does to send a refused token to sign in.
    if (error instanceof AttachmentFetchError && error.reason === "host-not-allowed") throw signInPage(error);
    throw error;
  }
  if (fetched.mimeType === "text/html" && !/\.html?$/i.test(new URL(url).pathname)) throw signInPage();
  return fetched;
}

function signInPage(cause?: unknown): AttachmentFetchError {
  return new AttachmentFetchError(
    "forbidden",
    "Slack answered with its sign-in page, not the file: the bot token was not accepted for it (files:read scope?)",
    cause === undefined ? {} : { cause },
  );
}
