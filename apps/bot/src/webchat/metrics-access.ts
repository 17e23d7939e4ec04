import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isLoopbackRequest } from "./local-request.js";

/** Whether a `GET /metrics` may be answered, and if not, what the scraper is told. */
export type MetricsVerdict =
  | { readonly kind: "allowed" }
  | { readonly kind: "refused"; readonly status: 401 | 403; readonly message: string };

/**
 * Who may read `/metrics` (agents' names, token use, cost): a scraper on this machine (TCP peer 127.0.0.1 or ::1, not
 * forwarded by a proxy), or any scraper sending `Authorization: Bearer <metricsToken>` when the account has one.
 * Contract: pure; the token is compared in constant time (digests of equal length); without a token configured,
 * every other peer is refused with 403, with one 401 naming the header when a token is configured but not given.
 */
export function metricsAccess(request: IncomingMessage, metricsToken: string | undefined): MetricsVerdict {
  if (isLoopbackRequest(request)) return { kind: "allowed" };
  if (metricsToken === undefined) {
    return {
      kind: "refused",
      status: 403,
      message:
        "/metrics is served to this machine only; set channels.webchat[].metricsToken and send it as " +
        "Authorization: Bearer <token> to scrape from elsewhere",
    };
  }
  const header = request.headers.authorization ?? "";
  const given = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
  if (given !== undefined && timingSafeEqual(digest(given), digest(metricsToken))) return { kind: "allowed" };
  return { kind: "refused", status: 401, message: "/metrics needs Authorization: Bearer <metricsToken>" };
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}
