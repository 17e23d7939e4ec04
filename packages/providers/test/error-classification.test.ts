import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { classifyProviderError, isContextOverflowText, retryAfterMs } from "../src/index.js";

const headers = (init: Record<string, string>) => new Headers(init);
const ctx = { authHint: "ANTHROPIC_API_KEY" };

describe("retry-after parsing", () => {
  it("prefers retry-after-ms, then seconds, then an HTTP date", () => {
    expect(retryAfterMs(headers({ "retry-after-ms": "1500.4", "retry-after": "9" }))).toBe(1500);
    expect(retryAfterMs(headers({ "retry-after": "3" }))).toBe(3000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now)).toBe(10_000);
  });

  it("ignores absent or nonsense values", () => {
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after-ms": "-5" }))).toBeUndefined();
  });
});

describe("context overflow wording", () => {
  it.each([
    "prompt is too long: 210000 tokens > 200000 maximum",
    "input length and `max_tokens` exceed context limit: 190000 + 20000 > 200000",
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
    "Your input exceeds the context window of this model. Please adjust your input and try again.",
    "This endpoint's maximum context length is 32768 tokens.",
    "the request exceeds the available context size, try increasing it",
    "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. tokens to keep from the initial prompt is greater than the context length",
  ])("recognises %s", (text) => {
    expect(isContextOverflowText(text)).toBe(true);
  });

  it("does not mistake other 400s for overflow", () => {
    expect(isContextOverflowText("messages.1.content: field required")).toBe(false);
  });
});

describe("classifyProviderError on the SDKs' own error classes", () => {
  it("Anthropic 529 is overloaded, 429 rate_limit with its wait", () => {
    const overloaded = Anthropic.APIError.generate(
      529,
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      undefined,
      headers({}),
    );
    expect(classifyProviderError(overloaded, ctx).kind).toBe("overloaded");
    const limited = Anthropic.APIError.generate(
      429,
      { error: { type: "rate_limit_error" } },
      undefined,
      headers({ "retry-after": "4" }),
    );
    expect(classifyProviderError(limited, ctx)).toMatchObject({ kind: "rate_limit", status: 429, retryAfterMs: 4000 });
  });

  it("auth failures name the setting to fix and never echo the key", () => {
    const error = OpenAI.APIError.generate(
      401,
      { error: { message: "Incorrect API key provided: sk-proj-abcdefghijklmnop.", code: "invalid_api_key" } },
      undefined,
      headers({}),
    );
    const info = classifyProviderError(error, { authHint: "OPENAI_API_KEY (or the apiKey option)" });
    expect(info.kind).toBe("auth");
    expect(info.message).toContain("OPENAI_API_KEY");
    expect(info.message).not.toContain("abcdefghijklmnop");
  });

  it("a 400 with overflow text is context_overflow; other 400s are invalid_request", () => {
    const overflow = OpenAI.APIError.generate(
      400,
      { error: { message: "x", code: "context_length_exceeded" } },
      undefined,
      headers({}),
    );
    expect(classifyProviderError(overflow, ctx).kind).toBe("context_overflow");
    const bad = OpenAI.APIError.generate(400, { error: { message: "tools[0].name invalid" } }, undefined, headers({}));
    expect(classifyProviderError(bad, ctx).kind).toBe("invalid_request");
  });

  it("connection failures are network, SDK timeouts are timeout, a user abort is aborted", () => {
    expect(classifyProviderError(new Anthropic.APIConnectionError({ message: "ECONNREFUSED" }), ctx).kind).toBe(
      "network",
    );
    expect(classifyProviderError(new OpenAI.APIConnectionTimeoutError(), ctx).kind).toBe("timeout");
    expect(classifyProviderError(new Anthropic.APIUserAbortError(), ctx).kind).toBe("aborted");
  });

  it("an abort of the caller's signal wins over whatever the SDK threw", () => {
    const info = classifyProviderError(new TypeError("terminated"), { ...ctx, signal: AbortSignal.abort() });
    expect(info.kind).toBe("aborted");
  });
});
