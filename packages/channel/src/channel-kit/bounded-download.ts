import { AttachmentFetchError } from "../channel/attachment-fetch-error.js";
import type { FetchedAttachment } from "../channel/channel-types.js";

/** How `downloadBounded` fetches one file. */
export interface BoundedDownload {
  /** Origins (`https://host[:port]`) the file may come from: the platform's own hosts and its configured API root. */
  readonly allowedOrigins: readonly string[];
  readonly maxBytes: number;
  /** The bot's credentials (e.g. `authorization`), sent to allowed origins only. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Redirects followed, each to an allowed origin again (default 3). */
  readonly maxRedirects?: number;
}

/**
 * Downloads `url` from one of the platform's own origins, reading at most `maxBytes`: a declared length over it is
 * refused before the body is read, a body that grows past it is cut off. Redirects are followed by hand so that each
 * hop is checked, and a redirect to another origin (Slack's sign-in page for a missing token) is refused.
 * Contract: resolves with the bytes and the served content type; rejects with AttachmentFetchError.
 */
export async function downloadBounded(url: string, options: BoundedDownload): Promise<FetchedAttachment> {
  let current = url;
  for (let hop = 0; hop <= (options.maxRedirects ?? 3); hop++) {
    const origin = originOf(current);
    if (origin === undefined || !options.allowedOrigins.includes(origin)) {
      throw new AttachmentFetchError(
        "host-not-allowed",
        `the file is not on the platform's own host (${origin ?? "no host"})`,
      );
    }
    let response: Response;
    try {
      response = await fetch(current, {
        headers: options.headers ?? {},
        redirect: "manual",
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      throw new AttachmentFetchError("network", "the platform could not be reached for the file", { cause: error });
    }
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("location");
      await response.body?.cancel();
      if (location === null) throw new AttachmentFetchError("network", "the platform redirected without a location");
      current = new URL(location, current).toString();
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new AttachmentFetchError(
        failureOf(response.status),
        `the platform answered ${response.status} for the file`,
      );
    }
    const mimeType = response.headers.get("content-type")?.split(";")[0]?.trim();
    const bytes = await readCapped(response, options.maxBytes);
    return mimeType === undefined || mimeType === "" ? { bytes } : { bytes, mimeType };
  }
  throw new AttachmentFetchError("network", "the platform redirected too often");
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(maxBytes);
  }
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes);
      }
      parts.push(value);
    }
  } catch (error) {
    if (error instanceof AttachmentFetchError) throw error;
    throw new AttachmentFetchError("network", "the file's download was cut off", { cause: error });
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}

function tooLarge(maxBytes: number): AttachmentFetchError {
  return new AttachmentFetchError("too-large", `the file is larger than ${maxBytes} bytes`);
}

function failureOf(status: number): "not-found" | "forbidden" | "network" {
  if (status === 404 || status === 410) return "not-found";
  if (status === 401 || status === 403) return "forbidden";
  return "network";
}

/**
 * The origin (`https://host[:port]`) of an http(s) URL; undefined for anything else or no URL.
 * Contract: pure. For building the `allowedOrigins` of `downloadBounded` from a configured API root.
 */
export function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
