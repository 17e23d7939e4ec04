import type { ProviderErrorKind } from "@chorus/core";
import type { FakeLlmScript } from "@chorus/testkit";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ProviderSetup, providerCases } from "./provider-matrix.js";
import { clearLlmEnv, collect } from "./stream-collect.js";

let setup: ProviderSetup | undefined;
beforeAll(() => clearLlmEnv());
afterEach(async () => {
  await setup?.fake.close();
  setup = undefined;
});

const user = { role: "user" as const, content: "hi", timestamp: 1 };

const faults: [string, FakeLlmScript, ProviderErrorKind][] = [
  ["429 rate limit", [{ type: "rate_limit", retryAfterSeconds: 2 }], "rate_limit"],
  ["overloaded", [{ type: "overloaded" }], "overloaded"],
  ["500", [{ type: "server_error" }], "server"],
  ["401", [{ type: "auth_error" }], "auth"],
  ["context overflow", [{ type: "context_overflow" }], "context_overflow"],
  ["bad request", [{ type: "bad_request", message: "messages: field required" }], "invalid_request"],
  ["mid-stream error event", [{ type: "text", text: "part" }, { type: "error_event" }], "overloaded"],
  ["mid-stream server error event", [{ type: "error_event", kind: "server_error" }], "server"],
  ["cut stream", [{ type: "text", text: "part" }, { type: "cut" }], "network"],
  [
    "refusal",
    [
      { type: "text", text: "I can't" },
      { type: "stop", reason: "refusal" },
    ],
    "invalid_request",
  ],
];

describe.each(providerCases)("$name: failures become classified error events", (provider) => {
  it.each(faults)("%s → %s", async (_label, script, kind) => {
    setup = await provider.start();
    setup.fake.enqueue(script);
    const { events, message } = await collect(setup.streamFn(setup.model, { messages: [user] }));
    expect(events.at(-1)?.type).toBe("error");
    expect(events.filter((e) => e.type === "error" || e.type === "done")).toHaveLength(1);
    expect(message.stopReason).toBe("error");
    expect(message.error?.kind).toBe(kind);
  });

  it("429 carries retryAfterMs, preferring retry-after-ms", async () => {
    setup = await provider.start();
    setup.fake.enqueue(
      [{ type: "rate_limit", retryAfterSeconds: 2 }],
      [{ type: "rate_limit", retryAfterSeconds: 9, retryAfterMs: 1500 }],
    );
    const first = await collect(setup.streamFn(setup.model, { messages: [user] }));
    const second = await collect(setup.streamFn(setup.model, { messages: [user] }));
    expect(first.message.error).toMatchObject({ kind: "rate_limit", status: 429, retryAfterMs: 2000 });
    expect(second.message.error?.retryAfterMs).toBe(1500);
  });

  it("the SDK does not retry on its own: one fault, one request", async () => {
    setup = await provider.start();
    setup.fake.enqueue([{ type: "server_error" }], [{ type: "text", text: "would succeed" }]);
    const { message } = await collect(setup.streamFn(setup.model, { messages: [user] }));
    expect(message.error?.kind).toBe("server");
    expect(setup.fake.requests).toHaveLength(1);
  });

  it("marks partial output on a failure after some text streamed", async () => {
    setup = await provider.start();
    setup.fake.enqueue([{ type: "text", text: "partial words" }, { type: "error_event" }]);
    const { message } = await collect(setup.streamFn(setup.model, { messages: [user] }));
    expect(message.error?.partialOutput).toBe(true);
  });

  it("aborting mid-stream ends with an aborted error event", async () => {
    setup = await provider.start();
    setup.fake.enqueue([
      { type: "text", text: "first" },
      { type: "stall", ms: 60_000 },
      { type: "text", text: "never" },
    ]);
    const controller = new AbortController();
    const stream = setup.streamFn(setup.model, { messages: [user] }, { signal: controller.signal });
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === "text_delta") controller.abort();
    }
    const message = await stream.result();
    expect(message.stopReason).toBe("aborted");
    expect(message.error?.kind).toBe("aborted");
    expect(seen.at(-1)).toBe("error");
  });

  it("an already-aborted signal sends no request", async () => {
    setup = await provider.start();
    const { message } = await collect(
      setup.streamFn(setup.model, { messages: [user] }, { signal: AbortSignal.abort() }),
    );
    expect(message.stopReason).toBe("aborted");
    expect(setup.fake.requests).toHaveLength(0);
  });

  it("a stalled stream is cut by the idle timeout and classified as timeout", async () => {
    // 1 s, not less: under load the first chunk itself can take a few hundred ms to arrive.
    setup = await provider.start({ idleTimeoutMs: 1000 });
    setup.fake.enqueue([
      { type: "text", text: "first" },
      { type: "stall", ms: 60_000 },
      { type: "text", text: "never" },
    ]);
    const { message } = await collect(setup.streamFn(setup.model, { messages: [user] }));
    expect(message.error?.kind).toBe("timeout");
    expect(message.errorMessage).toContain("stalled");
    expect(message.content).toMatchObject([{ type: "text", text: "first" }]);
  });

  it("the total timeout from StreamOptions ends a slow call", async () => {
    setup = await provider.start();
    setup.fake.enqueue([
      { type: "stall", ms: 60_000 },
      { type: "text", text: "never" },
    ]);
    const { message } = await collect(setup.streamFn(setup.model, { messages: [user] }, { timeoutMs: 50 }));
    expect(message.error?.kind).toBe("timeout");
    expect(message.errorMessage).toContain("timed out");
  });

  it("malformed tool-call JSON yields an incomplete call that is never ended", async () => {
    setup = await provider.start();
    setup.fake.enqueue([{ type: "tool_call", name: "write", rawArgs: '{"path": "a.txt", "text": ', id: "call_bad" }]);
    const { events, message } = await collect(setup.streamFn(setup.model, { messages: [user] }));
    expect(message.content).toMatchObject([{ type: "toolCall", name: "write", incomplete: true }]);
    expect(events.some((e) => e.type === "toolcall_end")).toBe(false);
  });
});
