import type { CallLog } from "../shared/call-log.js";
import type { Delivery } from "../shared/delivery.js";
import { slackSignature } from "./request-signature.js";
import type { SlackBotAccount, SlackSigningOverride } from "./slack-types.js";
import type { EnvelopeType } from "./socket-links.js";

/** One HTTP-mode delivery: JSON event body, or a form-encoded slash command or interaction payload. */
export interface HttpEventRequest {
  readonly account: SlackBotAccount;
  /** What is delivered, in Socket Mode's envelope terms; recorded with the ack as `params.type`. */
  readonly type: EnvelopeType;
  readonly url: string;
  readonly body: string;
  readonly contentType: "application/json" | "application/x-www-form-urlencoded";
  readonly retry?: { readonly num: number; readonly reason: string };
  readonly signing?: SlackSigningOverride;
}

/**
 * Posts a signed request to the app's Request URL, as Slack does in HTTP mode.
 * Contract: settles with the app's status; 2xx is `ok: true`; the app's answer is recorded
 * as an `ack` call. Never throws.
 */
export async function postSignedEvent<T>(
  request: HttpEventRequest,
  item: T,
  log: CallLog,
  signal: AbortSignal,
): Promise<Delivery<T>> {
  const timestampSec = request.signing?.timestampSec ?? Math.floor(Date.now() / 1000);
  const signature =
    request.signing?.signature === "invalid"
      ? `v0=${"0".repeat(64)}`
      : slackSignature(request.account.signingSecret, timestampSec, request.body);
  const headers: Record<string, string> = {
    "content-type": request.contentType,
    "x-slack-request-timestamp": String(timestampSec),
    "x-slack-signature": signature,
    "user-agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
  };
  if (request.retry) {
    headers["x-slack-retry-num"] = String(request.retry.num);
    headers["x-slack-retry-reason"] = request.retry.reason;
  }
  try {
    const response = await fetch(request.url, { method: "POST", headers, body: request.body, signal });
    const text = await response.text();
    let answer: unknown = text;
    try {
      answer = text === "" ? undefined : (JSON.parse(text) as unknown);
    } catch {
      // Plain-text acks stay text.
    }
    log.record({
      method: "ack",
      httpMethod: "POST",
      path: new URL(request.url).pathname,
      params: { type: request.type },
      body: answer,
      botId: request.account.userId,
      status: response.status,
      at: Date.now(),
    });
    return response.ok
      ? { ok: true, item, status: response.status }
      : { ok: false, item, status: response.status, reason: `app answered ${response.status}` };
  } catch (error) {
    return { ok: false, item, reason: `request to the app failed: ${String(error)}` };
  }
}
