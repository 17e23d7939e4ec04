import type { IncomingMessage, ServerResponse } from "node:http";
import {
  clearLegacyCookie,
  cookieValue,
  credentialCookie,
  credentialFromCookie,
  LEGACY_BROWSER_COOKIE,
  newCredential,
} from "./browser-identity.js";
import { isAllowedHost, isSameOrigin } from "./local-request.js";
import { metricsAccess } from "./metrics-access.js";
import type { WebchatAccess } from "./webchat-access.js";
import type { WebchatAsset } from "./webchat-assets.js";
import { loginPage } from "./webchat-login-page.js";
import { LoginThrottle } from "./webchat-login-throttle.js";

/** What /readyz reports. */
export interface ReadinessReport {
  readonly ready: boolean;
  readonly detail?: Record<string, unknown>;
}

/** What the WebChat server's plain HTTP side serves. */
export interface WebchatHttpOptions {
  readonly assets: ReadonlyMap<string, WebchatAsset>;
  readonly readiness: () => ReadinessReport;
  /** The access token check (a no-op without a token). */
  readonly access: WebchatAccess;
  /** The Host names this server answers to. */
  readonly allowedHosts: ReadonlySet<string>;
  /** `GET /metrics` (Prometheus text), when the bot's telemetry serves it. */
  readonly metrics?: (request: IncomingMessage, response: ServerResponse) => void;
  /** The bearer token a scraper on another machine sends for `/metrics` (this machine needs none). */
  readonly metricsToken?: string;
  /** Uploads and downloads of files (`webchatFileRoutes`): true when it answered the request. */
  readonly files?: (request: IncomingMessage, response: ServerResponse, path: string) => boolean;
}

const PAGE_HEADERS = {
  "cache-control": "no-cache",
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'",
};

/** Files the token form itself needs, served without the access cookie. */
const PUBLIC_ASSETS = new Set(["/style.css", "/favicon.svg"]);

/** The longest login form body read. */
const MAX_LOGIN_BODY = 4096;

/**
 * The HTTP side of the WebChat server: the page and its files (a browser without a credential cookie gets one with
 * the page), the access-token form (`GET`/`POST /login`, when a token is configured), `GET /healthz` (the process
 * answers), `GET /readyz` (503 until messages are taken, and while stopping) and `GET /metrics` (Prometheus text,
 * when telemetry serves it; to this machine, or to a scraper with the metrics bearer token), and with `files`
 * `POST /upload` and `GET /files/<id>`.
 * Contract: a Host this server does not answer to is 403 (except /healthz and /readyz); with a token, the page and
 * its script need the access cookie (the page redirects to /login), and an address that sent 5 wrong tokens within
 * a minute gets 429 until the minute is over; other methods are 405, unknown paths 404.
 */
export function webchatHttpHandler(
  options: WebchatHttpOptions,
): (request: IncomingMessage, response: ServerResponse) => void {
  const throttle = new LoginThrottle();
  return (request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path === "/healthz" || path === "/readyz") {
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { allow: "GET, HEAD" }).end();
        return;
      }
      const report = path === "/healthz" ? { ready: true } : options.readiness();
      const body =
        path === "/healthz"
          ? { status: "ok" }
          : { status: report.ready ? "ready" : "not ready", ...(report.detail ?? {}) };
      sendJson(response, report.ready ? 200 : 503, body);
      return;
    }
    if (!isAllowedHost(request, options.allowedHosts)) {
      sendText(response, 403, "this WebChat does not answer to that Host (see channels.webchat[].allowedHosts)");
      return;
    }
    if (path === "/metrics" && options.metrics !== undefined) {
      serveMetrics(request, response, options.metrics, options.metricsToken);
      return;
    }
    if (options.files?.(request, response, path) === true) return;
    if (path === "/login" && options.access.required) {
      if (request.method === "POST") {
        void handleLogin(request, response, options.access, throttle);
        return;
      }
      if (request.method === "GET" || request.method === "HEAD") {
        sendPage(response, 200, loginPage(false), request.method === "HEAD");
        return;
      }
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    const asset = options.assets.get(path);
    if (asset === undefined) {
      sendText(response, 404, "not found");
      return;
    }
    if (!PUBLIC_ASSETS.has(path) && !options.access.granted(request)) {
      if (asset.contentType.startsWith("text/html")) response.writeHead(303, { location: "/login" }).end();
      else sendText(response, 403, "this WebChat asks for its access token first: open / in the browser");
      return;
    }
    const headers: Record<string, string | string[]> = { "content-type": asset.contentType, ...PAGE_HEADERS };
    if (asset.contentType.startsWith("text/html")) headers["set-cookie"] = identityCookies(request);
    response.writeHead(200, headers).end(request.method === "HEAD" ? undefined : asset.body);
  };
}

/** `GET /metrics` for a scraper `metricsAccess` lets in; 401/403 with a sentence for anyone else. */
function serveMetrics(
  request: IncomingMessage,
  response: ServerResponse,
  metrics: (request: IncomingMessage, response: ServerResponse) => void,
  metricsToken: string | undefined,
): void {
  if (request.method !== "GET") {
    response.writeHead(405, { allow: "GET" }).end();
    return;
  }
  const verdict = metricsAccess(request, metricsToken);
  if (verdict.kind === "allowed") {
    metrics(request, response);
    return;
  }
  if (verdict.status === 401) response.setHeader("www-authenticate", 'Bearer realm="chorus metrics"');
  sendText(response, verdict.status, verdict.message);
}

/** A credential for a browser that has none, and the old public-id cookie removed. */
function identityCookies(request: IncomingMessage): string[] {
  const cookies: string[] = [];
  if (credentialFromCookie(request.headers.cookie) === undefined) cookies.push(credentialCookie(newCredential()));
  if (cookieValue(request.headers.cookie, LEGACY_BROWSER_COOKIE) !== undefined) cookies.push(clearLegacyCookie());
  return cookies;
}

async function handleLogin(
  request: IncomingMessage,
  response: ServerResponse,
  access: WebchatAccess,
  throttle: LoginThrottle,
): Promise<void> {
  if (!isSameOrigin(request)) {
    sendText(response, 403, "the token form must be sent from this WebChat's own page");
    return;
  }
  const address = request.socket.remoteAddress ?? "";
  if (!throttle.allows(address)) {
    sendText(response, 429, "too many wrong tokens from this address: wait a minute and try again");
    return;
  }
  let body = "";
  try {
    body = await readBody(request);
  } catch {
    sendText(response, 413, "the form is too large");
    return;
  }
  const token = new URLSearchParams(body).get("token") ?? "";
  const cookie = access.cookieFor(token);
  if (cookie === undefined) {
    throttle.fail(address);
    sendPage(response, 403, loginPage(true), false);
    return;
  }
  response.writeHead(303, { location: "/", "set-cookie": [cookie, ...identityCookies(request)] }).end();
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_LOGIN_BODY) {
        reject(new Error("too large"));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.once("error", reject);
  });
}

function sendPage(response: ServerResponse, status: number, html: string, headOnly: boolean): void {
  response
    .writeHead(status, { "content-type": "text/html; charset=utf-8", ...PAGE_HEADERS })
    .end(headOnly ? undefined : html);
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(text);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response
    .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify(body));
}
