import { createHmac } from "node:crypto";

/**
 * Slack's request signature: `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>`.
 * Contract: pure; equal inputs give equal signatures.
 */
export function slackSignature(signingSecret: string, timestampSec: number, rawBody: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestampSec}:${rawBody}`).digest("hex")}`;
}
