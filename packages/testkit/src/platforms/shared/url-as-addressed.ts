import type { IncomingMessage } from "node:http";

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/;

/**
 * `own` (a URL of this fake: its socket link, its gateway) with the host:port the client addressed (its Host header)
 * when that is a loopback address — e.g. a network gate in front of the fake — so that a socket URL the fake hands out
 * goes the same way as the request that asked for it.
 * Contract: returns `own` unchanged unless the Host header is a loopback host:port.
 */
export function urlAsAddressed(req: IncomingMessage, own: string): string {
  const host = req.headers.host ?? "";
  if (!LOOPBACK_HOST.test(host)) return own;
  const url = new URL(own);
  url.host = host;
  return url.toString();
}
