import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent, agentLoop, defaultRetryStrategy } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, ofType, textOf } from "./support/test-tools.js";

const model = fakeModel();

afterEach(() => {
  vi.useRealTimers();
});

describe("retries in the loop", () => {
  it("retries a rate limit after its retry-after, emitting retry, and succeeds", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn([
      { fault: "error", error: { kind: "rate_limit", message: "slow down", retryAfterMs: 5_000 } },
      "hello",
    ]);
    const stream = agentLoop([userMessage("hi")], { messages: [] }, { model, streamFn });
    const events = collect(stream);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(streamFn.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(streamFn.calls).toHaveLength(2);
    const all = await events;
    expect(ofType(all, "retry")).toMatchObject([
      {
        type: "retry",
        attempt: 1,
        maxAttempts: 8,
        delayMs: 5_000,
        error: { kind: "rate_limit", message: "slow down", retryAfterMs: 5_000 },
        discarded: { role: "assistant", stopReason: "error" },
      },
    ]);
    expect((await stream.result()).map(textOf)).toEqual(["hi", "hello"]);
  });

  it("discards the partial output of a failed attempt", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn([
      { fault: "error", error: { kind: "overloaded", message: "529", status: 529 }, partial: { text: "half a thou" } },
      "whole thought",
    ]);
    const agent = new Agent({ model, streamFn, retryStrategy: defaultRetryStrategy({ random: () => 0 }) });
    const run = agent.prompt("think");
    await vi.advanceTimersByTimeAsync(2_000);
    await run;
    expect(agent.state.messages.map(textOf)).toEqual(["think", "whole thought"]);
  });

  it("fails at once when the provider asks for a wait beyond the cap, saying why", async () => {
    const streamFn = scriptedStreamFn([
      { fault: "error", error: { kind: "rate_limit", message: "quota", retryAfterMs: 3_600_000 } },
    ]);
    const events = await collect(agentLoop([userMessage("hi")], { messages: [] }, { model, streamFn }));
    expect(ofType(events, "retry")).toEqual([]);
    expect(ofType(events, "agent_end")[0]?.error).toBe(
      "provider asked to retry after 3600 s, more than the 60 s cap: quota",
    );
  });

  it("gives up after the last attempt with the error on the message", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn(() => ({ fault: "error", error: { kind: "server", message: "500" } }));
    const stream = agentLoop(
      [userMessage("hi")],
      { messages: [] },
      {
        model,
        streamFn,
        retryStrategy: defaultRetryStrategy({ maxAttempts: 3, random: () => 0 }),
      },
    );
    const events = collect(stream);
    await vi.runAllTimersAsync();
    const all = await events;
    expect(streamFn.calls).toHaveLength(3);
    expect(ofType(all, "retry").map((r) => r.delayMs)).toEqual([2000, 4000]);
    expect(ofType(all, "agent_end")[0]?.error).toBe("gave up after 3 attempts: 500");
  });

  it("abort() interrupts a backoff wait", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn([{ fault: "error", error: { kind: "overloaded", message: "busy" } }, "never"]);
    const agent = new Agent({ model, streamFn });
    const run = agent.prompt("hi");
    await vi.advanceTimersByTimeAsync(100);
    agent.abort();
    const result = await run;
    expect(result.reason).toBe("aborted");
    expect(streamFn.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
