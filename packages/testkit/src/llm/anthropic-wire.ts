import {
  type FakeHttpFault,
  type FakeLlmScript,
  type FakeStopReason,
  scriptStopReason,
  scriptUsage,
  splitIntoDeltas,
  toolArgsText,
} from "./script.js";
import { namedEvent, type WireAction, type WireContext, type WireErrorResponse } from "./wire-action.js";

const stopReasons: Record<FakeStopReason, string> = {
  stop: "end_turn",
  length: "max_tokens",
  toolUse: "tool_use",
  refusal: "refusal",
  pause: "pause_turn",
};

/** Encodes a script as the Messages API's streaming events, in the order the real API sends them. */
export function encodeAnthropicStream(script: FakeLlmScript, ctx: WireContext): WireAction[] {
  const usage = scriptUsage(script);
  const out: WireAction[] = [];
  out.push(
    namedEvent("message_start", {
      type: "message_start",
      message: {
        id: `msg_fake_${ctx.seq}`,
        type: "message",
        role: "assistant",
        model: ctx.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          cache_creation_input_tokens: usage.cacheWrite ?? 0,
          cache_read_input_tokens: usage.cacheRead ?? 0,
          output_tokens: 1,
          service_tier: "standard",
        },
      },
    }),
    namedEvent("ping", { type: "ping" }),
  );
  let index = 0;
  let toolCount = 0;
  for (const step of script) {
    switch (step.type) {
      case "text": {
        out.push(blockStart(index, { type: "text", text: "" }));
        for (const text of splitIntoDeltas(step.text, step.chunks)) {
          out.push(blockDelta(index, { type: "text_delta", text }));
        }
        out.push(blockStop(index++));
        break;
      }
      case "thinking": {
        out.push(blockStart(index, { type: "thinking", thinking: "", signature: "" }));
        for (const thinking of splitIntoDeltas(step.thinking)) {
          out.push(blockDelta(index, { type: "thinking_delta", thinking }));
        }
        out.push(blockDelta(index, { type: "signature_delta", signature: step.signature }));
        out.push(blockStop(index++));
        break;
      }
      case "redacted_thinking": {
        out.push(blockStart(index, { type: "redacted_thinking", data: step.data }));
        out.push(blockStop(index++));
        break;
      }
      case "tool_call": {
        const id = step.id ?? `toolu_fake_${ctx.seq}_${toolCount++}`;
        out.push(blockStart(index, { type: "tool_use", id, name: step.name, input: {} }));
        out.push(blockDelta(index, { type: "input_json_delta", partial_json: "" }));
        for (const partial_json of splitIntoDeltas(toolArgsText(step), step.chunks ?? 3)) {
          out.push(blockDelta(index, { type: "input_json_delta", partial_json }));
        }
        out.push(blockStop(index++));
        break;
      }
      case "cut":
        out.push({ kind: "cut" });
        return out;
      case "stall":
        out.push({ kind: "stall", ms: step.ms });
        break;
      case "error_event": {
        const type = step.kind === "server_error" ? "api_error" : "overloaded_error";
        const message = step.kind === "server_error" ? "Internal server error" : "Overloaded";
        out.push(namedEvent("error", { type: "error", error: { type, message } }));
        out.push({ kind: "end" });
        return out;
      }
      default:
        break;
    }
  }
  out.push(
    namedEvent("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReasons[scriptStopReason(script)], stop_sequence: null },
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheWrite ?? 0,
        cache_read_input_tokens: usage.cacheRead ?? 0,
        output_tokens: usage.output,
      },
    }),
    namedEvent("message_stop", { type: "message_stop" }),
    { kind: "end" },
  );
  return out;
}

function blockStart(index: number, content_block: unknown): WireAction {
  return namedEvent("content_block_start", { type: "content_block_start", index, content_block });
}

function blockDelta(index: number, delta: unknown): WireAction {
  return namedEvent("content_block_delta", { type: "content_block_delta", index, delta });
}

function blockStop(index: number): WireAction {
  return namedEvent("content_block_stop", { type: "content_block_stop", index });
}

/** The Messages API's real error answer for an HTTP fault. */
export function anthropicErrorResponse(fault: FakeHttpFault): WireErrorResponse {
  const headers: Record<string, string> = { "request-id": "req_fake", "x-should-retry": "true" };
  const error = (status: number, type: string, message: string): WireErrorResponse => ({
    status,
    headers,
    body: { type: "error", error: { type, message }, request_id: "req_fake" },
  });
  switch (fault.type) {
    case "rate_limit":
      if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
      if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
      return error(
        429,
        "rate_limit_error",
        "This request would exceed the rate limit for your organization of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.",
      );
    case "overloaded":
      return error(529, "overloaded_error", "Overloaded");
    case "server_error":
      return error(500, "api_error", "Internal server error");
    case "context_overflow":
      headers["x-should-retry"] = "false";
      return error(
        400,
        "invalid_request_error",
        `prompt is too long: ${fault.promptTokens ?? 210_000} tokens > ${fault.limit ?? 200_000} maximum`,
      );
    case "auth_error":
      headers["x-should-retry"] = "false";
      return error(401, "authentication_error", "invalid x-api-key");
    case "bad_request":
      headers["x-should-retry"] = "false";
      return error(400, "invalid_request_error", fault.message);
  }
}
