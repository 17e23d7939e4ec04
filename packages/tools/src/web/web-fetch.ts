import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { BlockedAddressError, guardedLookup, isHostAllowed, type NetworkAllowance } from "./guarded-lookup.js";
import { htmlToText } from "./html-to-text.js";
import { isPrivateAddress } from "./private-address.js";

export interface WebFetchArgs {
  url: string;
}

export interface WebFetchOptions extends NetworkAllowance {
  /** Body bytes read at most; the rest is not downloaded. Default 2 MiB. */
  maxBytes?: number;
  /** Whole-request time limit, redirects included. Default 30 s. */
  timeoutMs?: number;
  /** Redirects followed at most. Default 5. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface WebFetchResult {
  status: number;
  finalUrl: string;
  contentType: string;
  /** Body as text (HTML converted to plain text). */
  text: string;
  bytesRead: number;
  /** True when the body was longer than maxBytes and reading stopped. */
  truncated: boolean;
}

/** A fetch the tool refuses or cannot complete; the message is meant for the model. */
export class WebFetchError extends Error {
  override readonly name = "WebFetchError";
}

const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml)|image\/svg\+xml)/i;

/**
 * Fetches an http(s) URL with an SSRF guard.
 * Contract: only http and https; every hop (redirects included) is refused when its host is a
 * private, loopback, link-local or metadata address — checked after DNS resolution, on the
 * address actually connected to — unless allowed; body capped at maxBytes, total time at timeoutMs;
 * non-text bodies are refused. Throws WebFetchError/BlockedAddressError with a readable message.
 */
export async function webFetch(args: WebFetchArgs, options: WebFetchOptions = {}): Promise<WebFetchResult> {
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
  const signal = AbortSignal.any(signals);
  let url = parseUrl(args.url);
  for (let hop = 0; ; hop++) {
    checkLiteralHost(url, options);
    const response = await send(url, options, signal, timeoutMs);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      if (hop >= maxRedirects) throw new WebFetchError(`Too many redirects (more than ${maxRedirects}).`);
      url = parseUrl(new URL(location, url).toString());
      continue;
    }
    const contentType = String(response.headers["content-type"] ?? "text/plain");
    if (!TEXTUAL.test(contentType)) {
      response.destroy();
      throw new WebFetchError(`${url} returned ${contentType}, which is not text; it is not shown.`);
    }
    const { body, truncated } = await readCapped(response, maxBytes, signal, timeoutMs);
    const raw = body.toString("utf8");
    return {
      status: response.statusCode ?? 0,
      finalUrl: url.toString(),
      contentType,
      text: /html/i.test(contentType) ? htmlToText(raw) : raw,
      bytesRead: body.length,
      truncated,
    };
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebFetchError(`Not a valid URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebFetchError(`Only http and https URLs can be fetched, not ${url.protocol}`);
  }
  return url;
}

function checkLiteralHost(url: URL, allowance: NetworkAllowance): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && isPrivateAddress(host) && !isHostAllowed(host, allowance)) {
    throw new BlockedAddressError(`${host} is a private or local address; fetch refused.`);
  }
}

function send(url: URL, allowance: NetworkAllowance, signal: AbortSignal, timeoutMs: number): Promise<IncomingMessage> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "GET",
      lookup: guardedLookup(allowance),
      signal,
      headers: {
        "user-agent": "chorus-web-fetch/0.1",
        accept: "text/html,text/plain,application/json,*/*;q=0.5",
        "accept-encoding": "identity",
      },
    });
    req.once("response", resolve);
    req.once("error", (error) => reject(describe(error, signal, timeoutMs)));
    req.end();
  });
}

function readCapped(
  response: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const finish = (truncated: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ body: Buffer.concat(chunks), truncated });
    };
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(describe(error, signal, timeoutMs));
    };
    response.on("data", (chunk: Buffer) => {
      if (settled) return;
      const room = maxBytes - length;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        length += room;
        finish(true);
        response.destroy();
        return;
      }
      chunks.push(chunk);
      length += chunk.length;
    });
    response.once("end", () => finish(false));
    response.once("error", fail);
    response.once("close", () => {
      if (!response.complete) fail(new Error("the connection closed before the body ended"));
    });
  });
}

function describe(error: Error, signal: AbortSignal, timeoutMs: number): Error {
  if (error instanceof BlockedAddressError) return error;
  if (signal.aborted) {
    const reason = signal.reason as Error | undefined;
    return new WebFetchError(reason?.name === "TimeoutError" ? `Timed out after ${timeoutMs} ms.` : "Fetch aborted.");
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof BlockedAddressError) return cause;
  return new WebFetchError(`Fetch failed: ${error.message}`);
}
