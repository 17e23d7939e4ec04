import { afterEach, describe, expect, it, vi } from "vitest";
import type { AssistantMessageEvent, AssistantMessageEventStream, StreamContext } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";

const model = fakeModel();
const ctx = (text = "hi"): StreamContext => ({ messages: [userMessage(text)] });

async function drain(stream: AssistantMessageEventStream): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("scriptedStreamFn", () => {
  it("plays a text reply, thinking with its signature, and tool calls in order", async () => {
    const fn = scriptedStreamFn([
      {
        thinking: { thinking: "hmm", signature: "sig-1" },
        text: "hello",
        toolCalls: [{ name: "read", args: { path: "a" } }],
        usage: { input: 1_000_000, output: 500_000 },
      },
    ]);
    const events = await drain(fn(model, ctx()));
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_end",
      "done",
    ]);
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("expected done");
    expect(done.message.stopReason).toBe("toolUse");
    expect(done.message.content).toEqual([
      { type: "thinking", thinking: "hmm", signature: "sig-1" },
      { type: "text", text: "hello" },
      { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" } },
    ]);
    expect(done.message.usage.cost.total).toBeCloseTo(2);
  });

  it("records the contexts it was called with, as they were at call time", async () => {
    const fn = scriptedStreamFn(["a", "b"]);
    const context = ctx("first");
    await drain(fn(model, context));
    context.messages.push(userMessage("second"));
    await drain(fn(model, context));
    expect(fn.calls.map((c) => c.context.messages.length)).toEqual([1, 2]);
  });

  it("chooses turns with a script function and reports exhaustion of a list", async () => {
    const fn = scriptedStreamFn((c, i) => `echo ${i}: ${JSON.stringify(c.messages[0]?.content)}`);
    const msg = await fn(model, ctx("x")).result();
    expect(msg.content).toEqual([{ type: "text", text: 'echo 0: "x"' }]);
    const listed = scriptedStreamFn([]);
    const failed = await listed(model, ctx()).result();
    expect(failed.stopReason).toBe("error");
    expect(failed.errorMessage).toMatch(/exhausted/);
  });

  it("delivers a classified provider error after partial output", async () => {
    const fn = scriptedStreamFn([
      {
        fault: "error",
        error: { kind: "rate_limit", message: "slow down", retryAfterMs: 3000 },
        partial: { text: "par" },
      },
    ]);
    const events = await drain(fn(model, ctx()));
    const last = events.at(-1);
    if (last?.type !== "error") throw new Error("expected error");
    expect(last.error.error).toEqual({
      kind: "rate_limit",
      message: "slow down",
      retryAfterMs: 3000,
      partialOutput: true,
    });
    expect(last.error.content).toEqual([{ type: "text", text: "par" }]);
  });

  it("throws synchronously for a throw fault and breaks the iterator for a broken stream", async () => {
    const fn = scriptedStreamFn([
      { fault: "throw", message: "boom" },
      { fault: "broken", mode: "reject" },
    ]);
    expect(() => fn(model, ctx())).toThrow("boom");
    await expect(drain(fn(model, ctx()))).rejects.toThrow(/broken/);
  });

  it("waits for delays on the timer clock and ends aborted when the signal fires", async () => {
    vi.useFakeTimers();
    const fn = scriptedStreamFn([
      {
        toolCalls: [
          { name: "a", delayMs: 100 },
          { name: "b", delayMs: 900 },
        ],
      },
    ]);
    const controller = new AbortController();
    const stream = fn(model, ctx(), { signal: controller.signal });
    const seen: string[] = [];
    const done = (async () => {
      for await (const e of stream) seen.push(e.type);
    })();
    await vi.advanceTimersByTimeAsync(100);
    expect(seen).toContain("toolcall_end");
    controller.abort();
    await done;
    expect(seen.at(-1)).toBe("error");
    expect((await stream.result()).stopReason).toBe("aborted");
  });

  it("stalls silently for the scripted time before continuing", async () => {
    vi.useFakeTimers();
    const fn = scriptedStreamFn([{ fault: "stall", ms: 5000, resume: { text: "late" } }]);
    const stream = fn(model, ctx());
    let ended = false;
    void stream.result().then(() => {
      ended = true;
    });
    await vi.advanceTimersByTimeAsync(4999);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toBe(true);
  });
});
