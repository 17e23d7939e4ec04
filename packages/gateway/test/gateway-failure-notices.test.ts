import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("plain failure notices", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("tells the chat when the provider is rate-limiting and when it will retry, then answers", async () => {
    vi.useFakeTimers();
    h = await startHarness({
      script: [
        { fault: "error", error: { kind: "rate_limit", message: "429 Too Many Requests", retryAfterMs: 20_000 } },
        "answer",
      ],
    });
    await h.channel.inject({ text: "hello" });
    await vi.advanceTimersByTimeAsync(21_000);
    await h.gateway.idle();
    expect(h.channel.transcript("dm-user-1")).toEqual([
      "The model provider is rate-limiting; retrying in 20 s",
      "answer",
    ]);
  });

  it("stops a turn that takes too long and says so", async () => {
    vi.useFakeTimers();
    h = await startHarness({
      script: [{ blocks: [{ type: "text", text: "late", delayMs: 20_000 }] }],
      gateway: { turnTimeoutMs: 5_000 },
    });
    await h.channel.inject({ text: "hello" });
    await vi.advanceTimersByTimeAsync(6_000);
    await h.gateway.idle();
    expect(h.channel.transcript("dm-user-1")).toEqual(["That took too long and was stopped."]);
    expect((await h.store.listRuns())[0]?.status).toBe("aborted");
  });

  it("says plainly when the model call failed for good", async () => {
    h = await startHarness({ script: [{ fault: "error", error: { kind: "auth", message: "invalid x-api-key" } }] });
    await h.send({ text: "hello" });
    // What failed and whether to retry; the provider's detail is for the log only.
    expect(h.channel.transcript("dm-user-1")).toEqual([
      "Sorry, the AI model refused the bot's credentials, so I cannot answer. Trying again will not help: please tell the bot's admin.",
    ]);
    expect((await h.store.listRuns())[0]?.status).toBe("failed");
  });
});
