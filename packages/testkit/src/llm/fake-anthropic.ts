import { anthropicRequestProblem } from "./anthropic-request-check.js";
import { anthropicErrorResponse, encodeAnthropicStream } from "./anthropic-wire.js";
import { type FakeLlmServer, startFakeLlmServer } from "./fake-llm-server.js";

/**
 * Starts a fake Anthropic Messages API on 127.0.0.1 (port 0) serving `POST /v1/messages`.
 * Contract: each request consumes one enqueued script and gets the SSE stream (or HTTP error)
 * the real API would send — a request the real API refuses (an empty text block, a message with no content) gets its
 * 400 instead, consuming no script; `url` goes to `new Anthropic({ baseURL: url })` as is.
 */
export function startFakeAnthropic(): Promise<FakeLlmServer> {
  return startFakeLlmServer(
    {
      "/v1/messages": { stream: encodeAnthropicStream, error: anthropicErrorResponse, check: anthropicRequestProblem },
    },
    "",
    {
      "request-id": "req_fake",
    },
  );
}
