import { captureTelemetry, metricTotals, type TelemetryCapture } from "@chorus/testkit";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";
import { subagentScript } from "./fixtures/subagent-script.js";

const CONFIG = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test" as const, dmPolicy: "open" as const, admins: ["user-1"] }],
};
const AGENTS = { main: { subagents: { helper: { description: "helps", tools: [] } } } };
const SESSION_KEY = "main:main:test:dm:user-1";
const SECRET = "sk-ant-api03-SECRETSECRETSECRET";

const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const one = (spans: ReadableSpan[], name: string): ReadableSpan => {
  const found = named(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const isChildOf = (child: ReadableSpan, parent: ReadableSpan) =>
  child.parentSpanContext?.spanId === parent.spanContext().spanId &&
  child.spanContext().traceId === parent.spanContext().traceId;

describe("a gateway turn's trace", () => {
  let capture: TelemetryCapture;
  let h: Harness;
  beforeEach(() => {
    capture = captureTelemetry();
  });
  afterEach(async () => {
    await h.close();
    await capture.stop();
  });

  it("is one tree: inbound → invoke_agent → chat and execute_tool → the sub-agent's invoke_agent, then the delivery", async () => {
    h = await startHarness({ config: CONFIG, script: subagentScript(), gateway: { agents: AGENTS } });
    await h.send({ text: "spawn wait quick" });
    await h.gateway.idle();
    expect(h.channel.transcript("dm-user-1").at(-1)).toContain("done:");

    const spans = capture.spans();
    const inbound = one(spans, "inbound test");
    const main = one(spans, "invoke_agent main");
    const tool = one(spans, "execute_tool spawn_agent");
    const helper = one(spans, "invoke_agent helper");
    expect(isChildOf(main, inbound)).toBe(true);
    expect(isChildOf(tool, main)).toBe(true);
    expect(isChildOf(helper, tool)).toBe(true);
    const chats = named(spans, "chat fake-model");
    expect(chats.filter((chat) => isChildOf(chat, main))).toHaveLength(2);
    expect(chats.filter((chat) => isChildOf(chat, helper))).toHaveLength(1);
    const deliveries = named(spans, "deliver test");
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.some((delivery) => delivery.spanContext().traceId === inbound.spanContext().traceId)).toBe(true);

    expect(inbound.attributes).toMatchObject({
      "chorus.channel": "test",
      "chorus.inbound.policy": "handle",
      "chorus.inbound.dedupe": "new",
      "chorus.inbound.verdict": "accepted",
    });
    expect(typeof inbound.attributes["chorus.queue.wait_ms"]).toBe("number");
    expect(inbound.attributes["chorus.session.key"]).toMatch(/^[0-9a-f]{16}$/);
    expect(tool.attributes).toMatchObject({ "gen_ai.tool.name": "spawn_agent", "chorus.tool.outcome": "success" });
    expect(deliveries[0]?.attributes).toMatchObject({ "chorus.platform.status": "sent", "chorus.outbox.attempt": 1 });
  });

  it("carries no message text, secret or verbatim session key by default", async () => {
    h = await startHarness({ config: CONFIG, script: subagentScript(), gateway: { agents: AGENTS } });
    await h.send({ text: `spawn wait quick ${SECRET}` });
    await h.gateway.idle();
    expect(capture.spans().map((span) => span.name)).toContain("invoke_agent helper");
    const attributes = JSON.stringify(capture.spans().map((span) => span.attributes));
    expect(attributes).not.toContain(SECRET);
    expect(attributes).not.toContain("spawn wait");
    expect(attributes).not.toContain(SESSION_KEY);
  });

  it("records content, sub-agents' included, and the session key as is only when configured to", async () => {
    h = await startHarness({
      config: CONFIG,
      script: subagentScript(),
      gateway: { agents: AGENTS, telemetry: { captureContent: true, sessionKeys: "verbatim" } },
    });
    await h.send({ text: "spawn wait quick" });
    await h.gateway.idle();
    const spans = capture.spans();
    const helper = one(spans, "invoke_agent helper");
    const helperChat = named(spans, "chat fake-model").find((chat) => isChildOf(chat, helper));
    expect(helperChat?.attributes["gen_ai.input.messages"]).toContain("quick");
    expect(one(spans, "execute_tool spawn_agent").attributes["gen_ai.tool.call.arguments"]).toContain("helper");
    expect(one(spans, "inbound test").attributes["chorus.session.key"]).toBe(SESSION_KEY);
  });

  it("counts messages, turns and deliveries in the metrics", async () => {
    h = await startHarness({ config: CONFIG, script: subagentScript(), gateway: { agents: AGENTS } });
    await h.send({ text: "hello" });
    await h.send({ text: "hello again" });
    await h.gateway.idle();
    const totals = metricTotals(await capture.collectMetrics());
    expect(totals.get("chorus.inbound.messages")).toBe(2);
    expect(totals.get("chorus.turn.duration")).toBe(2);
    expect(totals.get("chorus.queue.wait")).toBe(2);
    expect(totals.get("chorus.outbox.age")).toBeGreaterThanOrEqual(2);
    expect(totals.get("chorus.store.commit.duration")).toBeGreaterThanOrEqual(2);
    expect(totals.get("gen_ai.client.operation.duration")).toBe(2);
    expect(totals.has("chorus.sessions.active")).toBe(true);
  });
});
