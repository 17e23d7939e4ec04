import { describe, expect, it } from "vitest";
import { defaultRetryStrategy, type ProviderErrorInfo } from "../src/index.js";

const rateLimit: ProviderErrorInfo = { kind: "rate_limit", message: "429" };

describe("defaultRetryStrategy (seeds 001 and 003)", () => {
  it("backs off 2 s × 2^(n−1) with up to 20 % jitter", () => {
    const none = defaultRetryStrategy({ random: () => 0 });
    const most = defaultRetryStrategy({ random: () => 0.999999 });
    const delays = [1, 2, 3, 4].map((attempt) => none.decide({ error: rateLimit, attempt, partialFailures: 0 }));
    expect(delays).toEqual([2000, 4000, 8000, 16000].map((delayMs) => ({ retry: true, delayMs })));
    expect(most.decide({ error: rateLimit, attempt: 1, partialFailures: 0 })).toEqual({ retry: true, delayMs: 2400 });
  });

  it("retries rate limits, overload, server and network errors, but not auth or bad requests", () => {
    const s = defaultRetryStrategy({ random: () => 0 });
    const kinds = [
      "rate_limit",
      "overloaded",
      "server",
      "network",
      "timeout",
      "auth",
      "invalid_request",
      "aborted",
    ] as const;
    const retried = kinds.filter(
      (kind) => s.decide({ error: { kind, message: "x" }, attempt: 1, partialFailures: 0 }).retry,
    );
    expect(retried).toEqual(["rate_limit", "overloaded", "server", "network", "timeout"]);
  });

  it("honours retry-after up to the 60 s cap and fails at once beyond it, saying so", () => {
    const s = defaultRetryStrategy();
    expect(s.decide({ error: { ...rateLimit, retryAfterMs: 45_000 }, attempt: 1, partialFailures: 0 })).toEqual({
      retry: true,
      delayMs: 45_000,
    });
    const refused = s.decide({ error: { ...rateLimit, retryAfterMs: 3_600_000 }, attempt: 1, partialFailures: 0 });
    expect(refused).toEqual({
      retry: false,
      message: "provider asked to retry after 3600 s, more than the 60 s cap: 429",
    });
  });

  it("makes at most 8 attempts", () => {
    const s = defaultRetryStrategy();
    expect(s.maxAttempts).toBe(8);
    expect(s.decide({ error: rateLimit, attempt: 7, partialFailures: 0 }).retry).toBe(true);
    expect(s.decide({ error: rateLimit, attempt: 8, partialFailures: 0 })).toMatchObject({ retry: false });
  });

  it("retries a stream that failed after partial output at most 2 times", () => {
    const s = defaultRetryStrategy();
    const partial = { ...rateLimit, kind: "network" as const, partialOutput: true };
    expect(s.decide({ error: partial, attempt: 2, partialFailures: 2 }).retry).toBe(true);
    expect(s.decide({ error: partial, attempt: 3, partialFailures: 3 }).retry).toBe(false);
  });
});
