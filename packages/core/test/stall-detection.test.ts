import { afterEach, describe, expect, it, vi } from "vitest";
import { agentLoop, defaultRetryStrategy } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, ofType, textOf } from "./support/test-tools.js";

const model = fakeModel();
const backup = fakeModel({ id: "backup-model" });

afterEach(() => {
  vi.useRealTimers();
});

describe("stall detection", () => {
  it("emits stall after stallTimeoutMs without events, then retries", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn([{ fault: "stall", ms: 60_000, resume: { text: "too late" } }, "fresh answer"]);
    const stream = agentLoop(
      [userMessage("hi")],
      { messages: [] },
      {
        model,
        streamFn,
        stallTimeoutMs: 10_000,
        retryStrategy: defaultRetryStrategy({ random: () => 0 }),
      },
    );
    const events = collect(stream);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(streamFn.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(streamFn.calls).toHaveLength(2);
    const all = await events;
    expect(ofType(all, "stall")).toEqual([{ type: "stall", timeoutMs: 10_000, attempt: 1 }]);
    expect(ofType(all, "retry")[0]?.error.kind).toBe("timeout");
    expect((await stream.result()).map(textOf)).toEqual(["hi", "fresh answer"]);
    expect(streamFn.calls[0]?.options?.signal?.aborted).toBe(true);
  });

  it("does not count a slow but steady stream as stalled", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn([
      { blocks: [{ type: "text", text: "abcdef", chunks: ["ab", "cd", "ef"] }], tokenDelayMs: 8_000 },
    ]);
    const stream = agentLoop([userMessage("hi")], { messages: [] }, { model, streamFn, stallTimeoutMs: 10_000 });
    const events = collect(stream);
    await vi.runAllTimersAsync();
    const all = await events;
    expect(ofType(all, "stall")).toEqual([]);
    expect(textOf((await stream.result()).at(-1))).toBe("abcdef");
  });

  it("falls back to the next model on a stall when configured", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn((_, i) => (i === 0 ? { fault: "hang" } : "from backup"));
    const stream = agentLoop(
      [userMessage("hi")],
      { messages: [] },
      {
        model,
        streamFn,
        stallTimeoutMs: 1_000,
        stallRecovery: "fallback",
        fallbackModels: [backup],
      },
    );
    const events = collect(stream);
    await vi.advanceTimersByTimeAsync(1_000);
    const all = await events;
    expect(ofType(all, "model_fallback")[0]).toMatchObject({ from: model, to: backup, reason: "the stream stalled" });
    expect(streamFn.calls[1]?.model.id).toBe("backup-model");
  });
});
