import { type AgentEvent, type AgentMessage, agentLoop, defaultRetryStrategy } from "@chorus/core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ProviderSetup, providerCases } from "./provider-matrix.js";
import { clearLlmEnv } from "./stream-collect.js";
import { comparableTranscript, twoToolScripts, twoTools } from "./two-tool-conversation.js";

let setup: ProviderSetup | undefined;
beforeAll(() => clearLlmEnv());
afterEach(async () => {
  await setup?.fake.close();
  setup = undefined;
});

const prompt = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });

async function runLoop(
  s: ProviderSetup,
  text: string,
  extra: Partial<Parameters<typeof agentLoop>[2]> = {},
  signal?: AbortSignal,
) {
  const stream = agentLoop(
    [prompt(text)],
    { systemPrompt: "You are terse.", messages: [] },
    { model: s.model, streamFn: s.streamFn, tools: twoTools, ...extra },
    signal,
  );
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  const end = events.find((e) => e.type === "agent_end");
  if (end?.type !== "agent_end") throw new Error("no agent_end");
  return { events, end, messages: await stream.result() };
}

describe("a scripted two-tool conversation through agentLoop", () => {
  const transcripts = new Map<string, unknown[]>();

  it.each(providerCases)("runs end to end on $name", async (provider) => {
    setup = await provider.start();
    setup.fake.enqueue(...twoToolScripts);
    const { end, messages } = await runLoop(setup, "Weather and time in Paris?");
    expect(end.reason).toBe("completed");
    expect(messages.map((m) => ("role" in m ? m.role : "?"))).toEqual([
      "user",
      "assistant",
      "toolResult",
      "toolResult",
      "assistant",
    ]);
    // The second request carried both results, matched to their calls.
    expect(setup.fake.requests).toHaveLength(2);
    const sent = JSON.stringify(setup.fake.requests[1]!.body);
    expect(sent).toContain("Paris: sunny");
    expect(sent).toContain("Europe/Paris: 12:00");
    expect(end.usage.input + end.usage.output).toBe(120 + 40 + 200 + 12);
    expect(end.usage.cost.total).toBeCloseTo(
      messages.reduce((sum, m) => sum + ("role" in m && m.role === "assistant" ? m.usage.cost.total : 0), 0),
      12,
    );
    transcripts.set(provider.name, comparableTranscript(messages));
  });

  it("yields the same transcript on every provider (ids aside)", () => {
    expect([...transcripts.keys()]).toEqual(providerCases.map((p) => p.name));
    const [first, ...rest] = [...transcripts.values()];
    for (const other of rest) expect(other).toEqual(first);
  });
});

describe.each(providerCases)("$name through the core's default retry strategy", (provider) => {
  const fast = defaultRetryStrategy({ baseDelayMs: 1, jitter: 0 });

  it("retries a 429 after its retry-after-ms, then succeeds", async () => {
    setup = await provider.start();
    setup.fake.enqueue([{ type: "rate_limit", retryAfterMs: 5 }], [{ type: "text", text: "ok now" }]);
    const { events, end } = await runLoop(setup, "hi", { retryStrategy: fast });
    expect(end.reason).toBe("completed");
    const retry = events.find((e) => e.type === "retry");
    expect(retry?.type === "retry" && [retry.error.kind, retry.delayMs]).toEqual(["rate_limit", 5]);
    expect(setup.fake.requests).toHaveLength(2);
  });

  it.each([
    ["overloaded", [{ type: "overloaded" }]],
    ["server", [{ type: "server_error" }]],
    ["network", [{ type: "text", text: "half" }, { type: "cut" }]],
  ] as const)("retries %s", async (kind, script) => {
    setup = await provider.start();
    setup.fake.enqueue([...script], [{ type: "text", text: "recovered" }]);
    const { events, end } = await runLoop(setup, "hi", { retryStrategy: fast });
    expect(end.reason).toBe("completed");
    expect(events.some((e) => e.type === "retry" && e.error.kind === kind)).toBe(true);
  });

  it("never retries an auth failure, and says which key to set", async () => {
    setup = await provider.start();
    setup.fake.enqueue([{ type: "auth_error" }], [{ type: "text", text: "unreachable" }]);
    const { events, end } = await runLoop(setup, "hi", { retryStrategy: fast });
    expect(end.reason).toBe("error");
    expect(events.some((e) => e.type === "retry")).toBe(false);
    expect(setup.fake.requests).toHaveLength(1);
    expect(end.error).toMatch(/API_KEY/);
  });

  it("fails fast with a clear message when retry-after is above the cap", async () => {
    setup = await provider.start();
    setup.fake.enqueue([{ type: "rate_limit", retryAfterSeconds: 3600 }], [{ type: "text", text: "unreachable" }]);
    const { end } = await runLoop(setup, "hi");
    expect(end.reason).toBe("error");
    expect(end.error).toMatch(/3600 s/);
    expect(setup.fake.requests).toHaveLength(1);
  });

  it("abort mid-stream ends the run as aborted", async () => {
    setup = await provider.start();
    setup.fake.enqueue([
      { type: "text", text: "starting" },
      { type: "stall", ms: 60_000 },
    ]);
    const controller = new AbortController();
    const stream = agentLoop(
      [prompt("hi")],
      { messages: [] },
      { model: setup.model, streamFn: setup.streamFn },
      controller.signal,
    );
    let end: AgentEvent | undefined;
    for await (const event of stream) {
      if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") controller.abort();
      if (event.type === "agent_end") end = event;
    }
    expect(end?.type === "agent_end" && end.reason).toBe("aborted");
  });

  it("detects a stalled stream and retries it", async () => {
    setup = await provider.start();
    setup.fake.enqueue(
      [
        { type: "text", text: "hm" },
        { type: "stall", ms: 60_000 },
      ],
      [{ type: "text", text: "back" }],
    );
    const { events, end, messages } = await runLoop(setup, "hi", { stallTimeoutMs: 300, retryStrategy: fast });
    expect(events.some((e) => e.type === "stall")).toBe(true);
    expect(end.reason).toBe("completed");
    const last = messages.at(-1);
    expect(last && "role" in last && last.role === "assistant" && last.content).toEqual([
      { type: "text", text: "back" },
    ]);
  });
});
