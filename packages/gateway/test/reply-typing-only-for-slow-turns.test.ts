import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

function ops(h: Harness): string[] {
  return h.channel.calls.map((call) => call.op);
}

describe("typing shows only while a turn is slow", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("answers an instant reply with one send and no typing call", async () => {
    vi.useFakeTimers();
    h = await startHarness({ script: ["Hi there"] });
    await h.channel.inject({ text: "hello" });
    await vi.advanceTimersByTimeAsync(10_000);
    await h.gateway.idle();
    expect(ops(h)).toEqual(["send"]);
    expect(h.channel.transcript("dm-user-1")).toEqual(["Hi there"]);
  });

  it("shows typing once the turn has worked past the delay, repeats it while slow, and stops after the reply", async () => {
    vi.useFakeTimers();
    h = await startHarness({
      script: [{ text: "Thought it over", endDelayMs: 6_000 }],
      gateway: { typingDelayMs: 500 },
    });
    await h.channel.inject({ text: "think hard" });
    await vi.advanceTimersByTimeAsync(400);
    expect(ops(h)).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(ops(h)).toEqual(["typing"]);
    await vi.advanceTimersByTimeAsync(10_000);
    await h.gateway.idle();
    // Re-sent every 4 s while working (at 0.5 s and 4.5 s), then the reply; nothing after it.
    expect(ops(h)).toEqual(["typing", "typing", "send"]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ops(h)).toEqual(["typing", "typing", "send"]);
  });

  it("shows typing at once with typingDelayMs 0", async () => {
    vi.useFakeTimers();
    h = await startHarness({ script: ["Hi there"], gateway: { typingDelayMs: 0 } });
    await h.channel.inject({ text: "hello" });
    await vi.advanceTimersByTimeAsync(10_000);
    await h.gateway.idle();
    expect(ops(h)).toEqual(["typing", "send"]);
  });
});
