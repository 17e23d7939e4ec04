import { afterEach, describe, expect, it, vi } from "vitest";
import { scriptedModel, scriptedProvider } from "../src/index.js";
import { collect } from "./stream-collect.js";

const context = { messages: [{ role: "user" as const, content: "hi there", timestamp: 1 }] };

afterEach(() => {
  vi.useRealTimers();
});

describe("scripted provider", () => {
  it("streams text word by word and tool calls, deterministically", async () => {
    const streamFn = scriptedProvider([
      { text: "Let me look.", toolCalls: [{ name: "search", args: { q: "x" }, id: "call_1" }] },
      "Found it.",
    ]);
    const first = await collect(streamFn(scriptedModel(), context));
    expect(first.events.filter((e) => e.type === "text_delta").map((e) => e.type === "text_delta" && e.delta)).toEqual([
      "Let ",
      "me ",
      "look.",
    ]);
    expect(first.message.stopReason).toBe("toolUse");
    expect(first.message.content[1]).toEqual({ type: "toolCall", id: "call_1", name: "search", arguments: { q: "x" } });
    const second = await collect(streamFn(scriptedModel(), context));
    expect(second.message.content).toEqual([{ type: "text", text: "Found it." }]);
    expect(streamFn.calls).toHaveLength(2);
  });

  it("answers from a function of the context", async () => {
    const streamFn = scriptedProvider((ctx) => {
      const last = ctx.messages.at(-1);
      return `You said: ${last?.role === "user" && typeof last.content === "string" ? last.content : "?"}`;
    });
    const { message } = await collect(streamFn(scriptedModel(), context));
    expect(message.content).toEqual([{ type: "text", text: "You said: hi there" }]);
  });

  it("waits tokenDelayMs before each token (fake timers)", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedProvider(["one two three"], { tokenDelayMs: 100 });
    const stream = streamFn(scriptedModel(), context);
    const deltas: string[] = [];
    const reading = (async () => {
      for await (const event of stream) if (event.type === "text_delta") deltas.push(event.delta);
    })();
    await vi.advanceTimersByTimeAsync(150);
    expect(deltas).toEqual(["one "]);
    await vi.advanceTimersByTimeAsync(200);
    expect(deltas).toEqual(["one ", "two ", "three"]);
    await reading;
  });

  it("loops a list script when asked, and says when a list is exhausted otherwise", async () => {
    const looping = scriptedProvider(["a", "b"], { loop: true });
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { message } = await collect(looping(scriptedModel(), context));
      texts.push(message.content[0]?.type === "text" ? message.content[0].text : "");
    }
    expect(texts).toEqual(["a", "b", "a"]);
    const once = scriptedProvider(["a"]);
    await collect(once(scriptedModel(), context));
    const { message } = await collect(once(scriptedModel(), context));
    expect(message.error).toMatchObject({ kind: "invalid_request" });
    expect(message.errorMessage).toContain("exhausted");
  });

  it("plays faults from the core's script format", async () => {
    const streamFn = scriptedProvider([{ fault: "error", error: { kind: "overloaded", message: "busy" } }]);
    const { message } = await collect(streamFn(scriptedModel(), context));
    expect(message.stopReason).toBe("error");
    expect(message.error?.kind).toBe("overloaded");
  });
});
