import type { IncomingMessage } from "node:http";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** Whether a request came over the loopback interface. */
export function isLoopbackRequest(request: IncomingMessage): boolean {
  const address = request.socket.remoteAddress ?? "";
  return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
}

/**
 * Whether a WebSocket upgrade may proceed: the Host is this machine (no DNS rebinding) when serving on loopback,
 * and the Origin, when a browser sends one, is this very server (no other web page driving the local admin).
 */
export function isAllowedUpgrade(request: IncomingMessage, loopbackOnly: boolean): boolean {
  const host = request.headers.host ?? "";
  const hostname = host.replace(/:\d+$/, "");
  if (loopbackOnly && !LOOPBACK_HOSTS.has(hostname)) return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
