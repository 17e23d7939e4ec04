import { captureTelemetry, type TelemetryCapture } from "@chorus/testkit";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterEach, beforeEach, expect, it } from "vitest";
import { ChannelError } from "../src/channel/index.js";
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

it("sends a command's answer retried by the outbox poll in the command message's trace, under its inbound span", async () => {
  h = await startHarness({ gateway: { outbox: { baseRetryMs: 5, pollMs: 10 } } });
  h.channel.failNext("send", () => new ChannelError("network", "connect ECONNREFUSED"), 1);
  await h.send({ text: "/help" });
  await expect.poll(() => chatTexts(h.channel, "dm-user-1").length, { timeout: 5_000 }).toBe(1);
  await h.gateway.idle();

  const spans = capture.spans();
  const inbound = spans.find((span) => span.name === "inbound test") as ReadableSpan;
  expect(inbound.attributes["chorus.inbound.verdict"]).toBe("command");
  const deliveries = spans.filter((span) => span.name === "deliver test");
  expect(deliveries.map((span) => span.attributes["chorus.platform.status"])).toEqual(["network", "sent"]);
  const [first, retry] = deliveries as [ReadableSpan, ReadableSpan];
  expect(first.spanContext().traceId).toBe(inbound.spanContext().traceId);
  // The retry came from the poll, after the command's intake had ended: its parent is the span stored with the entry.
  expect(retry.attributes["chorus.outbox.attempt"]).toBe(2);
  expect(retry.spanContext().traceId).toBe(inbound.spanContext().traceId);
  expect(retry.parentSpanContext?.spanId).toBe(inbound.spanContext().spanId);
  const [entry] = await h.store.listOutbox({ status: "sent" });
  expect(entry?.traceparent).toBe(`00-${inbound.spanContext().traceId}-${inbound.spanContext().spanId}-01`);
});
