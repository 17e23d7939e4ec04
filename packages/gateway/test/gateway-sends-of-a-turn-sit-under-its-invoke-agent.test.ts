import { ChannelError } from "@chorus/channel";
import { captureTelemetry, type TelemetryCapture } from "@chorus/testkit";
import { trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { GatewayLogger } from "../src/logging/gateway-logger.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

let capture: TelemetryCapture;
let h: Harness;

beforeEach(() => {
  capture = captureTelemetry();
});

afterEach(async () => {
  await h.close();
  await capture.stop();
});

const named = (name: string): ReadableSpan[] => capture.spans().filter((span) => span.name === name);
const parentId = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
const spanId = (span: ReadableSpan | undefined): string | undefined => span?.spanContext().spanId;

it("sends a reply — its text before a tool call and its final answer — as children of the turn's invoke_agent", async () => {
  h = await startHarness({ script: [{ text: "let me look", toolCalls: [{ name: "nope" }] }, "found it"] });
  await h.send({ text: "question" });
  await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 }).toEqual(["let me look", "found it"]);
  await h.gateway.idle();
  const [run] = named("invoke_agent main");
  const deliveries = named("deliver test");
  expect(deliveries).toHaveLength(2);
  expect(deliveries.map(parentId)).toEqual([spanId(run), spanId(run)]);
});

it("sends the first attempt of a reply and its retry by the poll both under the turn's invoke_agent", async () => {
  h = await startHarness({ script: ["the answer"], gateway: { outbox: { baseRetryMs: 5, pollMs: 10 } } });
  h.channel.failNext("send", () => new ChannelError("network", "connect ECONNREFUSED"), 1);
  await h.send({ text: "question" });
  await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 }).toEqual(["the answer"]);
  await h.gateway.idle();
  const [run] = named("invoke_agent main");
  const deliveries = named("deliver test");
  expect(deliveries.map((span) => span.attributes["chorus.platform.status"])).toEqual(["network", "sent"]);
  expect(deliveries.map(parentId)).toEqual([spanId(run), spanId(run)]);
});

it("runs a turn's log lines and its run events' handlers inside its invoke_agent or execute_tool span", async () => {
  const logged: Array<{ message: string | undefined; span: string | undefined }> = [];
  const record =
    (): GatewayLogger["info"] =>
    (_fields, message): void => {
      logged.push({ message, span: trace.getActiveSpan()?.spanContext().spanId });
    };
  const logger: GatewayLogger = { info: record(), warn: record(), error: record() };
  h = await startHarness({
    script: [{ toolCalls: [{ name: "nope" }] }, "done"],
    gateway: { logger, outbox: { baseRetryMs: 5, pollMs: 10 } },
  });
  const handled: Array<{ type: string; span: string | undefined }> = [];
  h.gateway.events.subscribe((delivery) => {
    handled.push({ type: delivery.type, span: trace.getActiveSpan()?.spanContext().spanId });
  });
  // A failed first send is logged by the turn's delivery; the retry belongs to the poll.
  h.channel.failNext("send", () => new ChannelError("network", "connect ECONNREFUSED"), 1);
  await h.send({ text: "question" });
  await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 }).toEqual(["done"]);
  await h.gateway.idle();
  const run = spanId(named("invoke_agent main")[0]);
  expect(run).toBeDefined();
  const runEvents = handled.filter((entry) => ["run_started", "tool_activity", "run_ended"].includes(entry.type));
  expect(runEvents.map((entry) => entry.type)).toEqual(["run_started", "tool_activity", "tool_activity", "run_ended"]);
  expect(runEvents.filter((entry) => entry.span !== run)).toEqual([]);
  expect(handled.find((entry) => entry.type === "delivery_failed")?.span).toBe(run);
  expect(logged.map((entry) => entry.message)).toContain("delivery failed");
  expect(logged.filter((entry) => entry.span !== run)).toEqual([]);
});
