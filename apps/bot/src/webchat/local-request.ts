import type { IncomingMessage } from "node:http";

/** The bind hosts that keep WebChat on this machine only; any other bind needs an access token. */
const LOOPBACK_BINDS = new Set(["127.0.0.1", "::1", "[::1]", "localhost"]);

/** The Host names a loopback-bound WebChat answers to (anything else may be DNS rebinding). */
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1"];

/** Headers a reverse proxy adds: a request carrying one did not come from a browser on this machine. */
const PROXY_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip"];

/**
 * Whether binding `host` keeps WebChat on this machine: only 127.0.0.1, ::1 and localhost.
 * Contract: pure; other loopback addresses (127.0.0.2…) count as not local, like any other address.
 */
export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_BINDS.has(host.toLowerCase());
}

/**
 * Whether a request came from a browser on this machine.
 * Contract: true only when the TCP peer is 127.0.0.1 or ::1 (not 127.0.0.2 or any other address) and the request
 * carries no Forwarded / X-Forwarded-For / X-Real-IP header (a reverse proxy forwarded it from elsewhere).
 */
export function isLoopbackRequest(request: IncomingMessage): boolean {
  const address = request.socket.remoteAddress ?? "";
  const loopback = address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
  return loopback && PROXY_HEADERS.every((name) => request.headers[name] === undefined);
}

/**
 * The host names a WebChat bound to `bindHost` answers to.
 * Contract: pure; loopback names on a loopback bind (allowedHosts ignored), else `allowedHosts` (default the bind
 * host), lower-case, without ports or IPv6 brackets.
 */
export function allowedHostNames(bindHost: string, allowedHosts: readonly string[] | undefined): ReadonlySet<string> {
  if (isLoopbackBind(bindHost)) return new Set(LOOPBACK_HOSTS);
  const names = allowedHosts !== undefined && allowedHosts.length > 0 ? allowedHosts : [bindHost];
  return new Set(names.map(hostNameOf));
}

/** `Host`-header form to a bare lower-case name: no port, no IPv6 brackets. */
function hostNameOf(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith("[")) return trimmed.slice(1, trimmed.indexOf("]") > 0 ? trimmed.indexOf("]") : undefined);
  const colons = trimmed.split(":").length - 1;
  return colons === 1 ? (trimmed.split(":")[0] ?? "") : trimmed;
}

/**
 * Whether the request's Host header names this server (no DNS rebinding, no request meant for another site).
 * Contract: false without a Host header; the port is not compared.
 */
export function isAllowedHost(request: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const host = request.headers.host;
  return host !== undefined && allowed.has(hostNameOf(host));
}

/**
 * Whether the request's Origin, when a browser sends one, is this very server (no other web page driving it).
 * Contract: true without an Origin header (not a browser); false for an unreadable one.
 */
export function isSameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === (request.headers.host ?? "");
  } catch {
    return false;
  }
}
