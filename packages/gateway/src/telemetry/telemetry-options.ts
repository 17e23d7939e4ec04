import type { SessionKeyMode } from "./session-key-hash.js";

/**
 * The gateway's OpenTelemetry settings. Spans and metrics are recorded only once the program registers an SDK.
 * Contract: both defaults keep personal data off the spans.
 */
export interface GatewayTelemetryOptions {
  /** Session keys (which hold chat and user ids) on spans: "hashed" (default) or "verbatim". */
  sessionKeys?: SessionKeyMode;
  /** Record prompts, model output, tool arguments and results on the GenAI spans. Default false. */
  captureContent?: boolean;
}
