import { afterEach, describe, expect, it, vi } from "vitest";
import { agentLoop, defaultRetryStrategy } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool, ofType, textOf } from "./support/test-tools.js";

const primary = fakeModel({ id: "primary" });
const second = fakeModel({ id: "second" });
const third = fakeModel({ id: "third" });
const overloaded = {
  fault: "error" as const,
  error: { kind: "overloaded" as const, message: "529 overloaded", status: 529 },
};

afterEach(() => {
  vi.useRealTimers();
});

describe("model fallback", () => {
  it("moves to the next fallback model after the retries, emits model_fallback and drops the partial message", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn((_, i) =>
      i < 2 ? { ...overloaded, partial: { text: "partial from primary" } } : "answer from second",
    );
    const stream = agentLoop(
      [userMessage("hi")],
      { messages: [] },
      {
        model: primary,
        streamFn,
        fallbackModels: [second, third],
        retryStrategy: defaultRetryStrategy({ maxAttempts: 2, random: () => 0 }),
      },
    );
    const events = collect(stream);
    await vi.runAllTimersAsync();
    const all = await events;
    expect(streamFn.calls.map((c) => c.model.id)).toEqual(["primary", "primary", "second"]);
    const fallback = ofType(all, "model_fallback");
    expect(fallback).toHaveLength(1);
    expect(fallback[0]).toMatchObject({ from: primary, to: second, reason: "overloaded: 529 overloaded" });
    expect(fallback[0]?.discarded).toBeDefined();
    const added = await stream.result();
    expect(added.map(textOf)).toEqual(["hi", "answer from second"]);
    expect(added[1]).toMatchObject({ model: "second" });
  });

  it("falls back at once when fallbackImmediately is set", async () => {
    const streamFn = scriptedStreamFn([overloaded, overloaded, "third answers"]);
    const stream = agentLoop(
      [userMessage("hi")],
      { messages: [] },
      {
        model: primary,
        streamFn,
        fallbackModels: [second, third],
        fallbackImmediately: true,
      },
    );
    const all = await collect(stream);
    expect(streamFn.calls.map((c) => c.model.id)).toEqual(["primary", "second", "third"]);
    expect(ofType(all, "retry")).toEqual([]);
    expect(ofType(all, "model_fallback").map((e) => e.to.id)).toEqual(["second", "third"]);
  });

  it("keeps using the fallback model for the rest of the run", async () => {
    const streamFn = scriptedStreamFn([overloaded, { toolCalls: [{ name: "echo", args: { text: "x" } }] }, "done"]);
    await agentLoop(
      [userMessage("hi")],
      { messages: [] },
      {
        model: primary,
        streamFn,
        tools: [echoTool],
        fallbackModels: [second],
        fallbackImmediately: true,
      },
    ).result();
    expect(streamFn.calls.map((c) => c.model.id)).toEqual(["primary", "second", "second"]);
  });
});
