import type { FakeHttpFault } from "./script.js";
import type { WireErrorResponse } from "./wire-action.js";

/** Which OpenAI endpoint failed: the two word their context-overflow errors differently. */
export type OpenAIEndpoint = "chat" | "responses";

/** The OpenAI API's real error answer for an HTTP fault. */
export function openAIErrorResponse(fault: FakeHttpFault, endpoint: OpenAIEndpoint): WireErrorResponse {
  const headers: Record<string, string> = { "x-request-id": "req_fake" };
  const error = (status: number, message: string, type: string, code: string | null, param: string | null = null) => ({
    status,
    headers,
    body: { error: { message, type, param, code } },
  });
  switch (fault.type) {
    case "rate_limit":
      if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
      if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
      return error(
        429,
        "Rate limit reached for gpt-4o in organization org-fake on tokens per min (TPM): Limit 30000, Used 29500, Requested 1200. Please try again in 1.4s.",
        "tokens",
        "rate_limit_exceeded",
      );
    case "overloaded":
      return error(503, "The engine is currently overloaded, please try again later", "server_error", null);
    case "server_error":
      return error(
        500,
        "The server had an error while processing your request. Sorry about that!",
        "server_error",
        null,
      );
    case "context_overflow":
      return endpoint === "chat"
        ? error(
            400,
            `This model's maximum context length is ${fault.limit ?? 128_000} tokens. However, your messages resulted in ${fault.promptTokens ?? 130_000} tokens. Please reduce the length of the messages.`,
            "invalid_request_error",
            "context_length_exceeded",
            "messages",
          )
        : error(
            400,
            "Your input exceeds the context window of this model. Please adjust your input and try again.",
            "invalid_request_error",
            "context_length_exceeded",
            "input",
          );
    case "auth_error":
      return error(
        401,
        "Incorrect API key provided: sk-fake. You can find your API key at https://platform.openai.com/account/api-keys.",
        "invalid_request_error",
        "invalid_api_key",
      );
    case "bad_request":
      return error(400, fault.message, "invalid_request_error", null);
  }
}
