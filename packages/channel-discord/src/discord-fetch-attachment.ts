import type { AttachmentLocation, FetchAttachmentOptions, FetchedAttachment } from "@chorus/channel";
import { AttachmentFetchError, ChannelError, downloadBounded, originOf } from "@chorus/channel";

/** Where Discord serves attachments. */
export const DISCORD_CDN_ORIGINS: readonly string[] = ["https://cdn.discordapp.com", "https://media.discordapp.net"];

/** One entry of `POST /attachments/refresh-urls`'s answer. */
export interface RefreshedAttachmentUrl {
  readonly original: string;
  readonly refreshed: string;
}

/** How a Discord bot downloads attachments and renews their links. */
export interface DiscordFileSource {
  /** The configured REST base (a test's fake serves its CDN on its own origin); its origin is allowed too. */
  readonly restApi?: string;
  /** `POST /attachments/refresh-urls` with the bot's token. */
  refreshUrls(urls: readonly string[]): Promise<readonly RefreshedAttachmentUrl[]>;
  readonly now: () => number;
}

/**
 * Downloads an attachment from its CDN link (`location.url`), from Discord's CDN (or the configured REST API's origin)
 * only, and without the bot's token: the link is signed. A link past its signed expiry (`ex`), or one the CDN no longer
 * serves (404), is renewed through `POST /attachments/refresh-urls` and downloaded again; the answer then carries the
 * new link as `refreshedUrl`.
 * Contract: rejects with AttachmentFetchError — `expired` when the link cannot be renewed, `host-not-allowed` for any
 * other host (without a request).
 */
export async function fetchDiscordAttachment(
  source: DiscordFileSource,
  location: AttachmentLocation,
  options: FetchAttachmentOptions,
): Promise<FetchedAttachment> {
  const url = location.url;
  if (url === undefined || url === "") {
    throw new AttachmentFetchError(
      "unsupported",
      "a Discord attachment is downloaded from its link, and none was kept",
    );
  }
  const allowedOrigins = [...DISCORD_CDN_ORIGINS];
  const apiOrigin = originOf(source.restApi);
  if (apiOrigin !== undefined) allowedOrigins.push(apiOrigin);
  const origin = originOf(url);
  if (origin === undefined || !allowedOrigins.includes(origin)) {
    throw new AttachmentFetchError(
      "host-not-allowed",
      `a Discord attachment is not downloaded from ${origin ?? "there"}`,
    );
  }
  const download = (link: string) =>
    downloadBounded(link, {
      allowedOrigins,
      maxBytes: options.maxBytes,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  if (!pastExpiry(url, source.now())) {
    try {
      return await download(url);
    } catch (error) {
      if (!(error instanceof AttachmentFetchError && error.reason === "not-found")) throw error;
    }
  }
  const refreshed = await renewed(source, url);
  try {
    return { ...(await download(refreshed)), refreshedUrl: refreshed };
  } catch (error) {
    if (error instanceof AttachmentFetchError && error.reason === "not-found") {
      throw new AttachmentFetchError("expired", "the attachment's renewed link is not served either", { cause: error });
    }
    throw error;
  }
}

async function renewed(source: DiscordFileSource, url: string): Promise<string> {
  let answer: readonly RefreshedAttachmentUrl[];
  try {
    answer = await source.refreshUrls([url]);
  } catch (error) {
    const passing = error instanceof ChannelError && error.retryable;
    throw new AttachmentFetchError(
      passing ? "network" : "expired",
      `the attachment's link expired and could not be renewed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const refreshed = answer.find((entry) => entry.original === url)?.refreshed;
  if (refreshed === undefined || refreshed === url) {
    throw new AttachmentFetchError("expired", "the attachment's link expired and Discord did not renew it");
  }
  return refreshed;
}

/** Whether a signed CDN link is past its `ex` (hex seconds since the epoch); a link without one is not. */
function pastExpiry(url: string, now: number): boolean {
  const ex = new URL(url).searchParams.get("ex");
  if (ex === null || !/^[0-9a-f]+$/i.test(ex)) return false;
  return Number.parseInt(ex, 16) * 1000 <= now;
}
