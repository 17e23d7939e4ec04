import type { IncomingMessage, ServerResponse } from "node:http";
import { browserCookie, browserIdFromCookie, newBrowserId } from "./browser-identity.js";
import type { WebchatAsset } from "./webchat-assets.js";

/** What /readyz reports. */
export interface ReadinessReport {
  readonly ready: boolean;
  readonly detail?: Record<string, unknown>;
}

/** What the WebChat server's plain HTTP side serves. */
export interface WebchatHttpOptions {
  readonly assets: ReadonlyMap<string, WebchatAsset>;
  readonly readiness: () => ReadinessReport;
}

const PAGE_HEADERS = {
  "cache-control": "no-cache",
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
};

/**
 * The HTTP side of the WebChat server: the page and its files (a browser without the cookie gets one with the
 * page), `GET /healthz` (the process answers) and `GET /readyz` (503 until messages are taken, and while stopping).
 * Contract: only GET and HEAD; anything else is 405, unknown paths 404.
 */
export function webchatHttpHandler(
  options: WebchatHttpOptions,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    if (path === "/healthz") {
      sendJson(response, 200, { status: "ok" });
      return;
    }
    if (path === "/readyz") {
      const report = options.readiness();
      sendJson(response, report.ready ? 200 : 503, {
        status: report.ready ? "ready" : "not ready",
        ...(report.detail ?? {}),
      });
      return;
    }
    const asset = options.assets.get(path);
    if (asset === undefined) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
      return;
    }
    const headers: Record<string, string> = { "content-type": asset.contentType, ...PAGE_HEADERS };
    if (asset.contentType.startsWith("text/html") && !browserIdFromCookie(request.headers.cookie)) {
      headers["set-cookie"] = browserCookie(newBrowserId());
    }
    response.writeHead(200, headers).end(request.method === "HEAD" ? undefined : asset.body);
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response
    .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify(body));
}
