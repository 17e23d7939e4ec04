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

it("sends a reply retried by the outbox poll in the trace of the turn that wrote it, under its invoke_agent span", async () => {
  h = await startHarness({ script: ["the answer"], gateway: { outbox: { baseRetryMs: 5, pollMs: 10 } } });
  h.channel.failNext("send", () => new ChannelError("network", "connect ECONNREFUSED"), 1);
  await h.send({ text: "question" });
  await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 }).toEqual(["the answer"]);
  await h.gateway.idle();

  const spans = capture.spans();
  const turn = spans.find((span) => span.name === "invoke_agent main") as ReadableSpan;
  const deliveries = spans.filter((span) => span.name === "deliver test");
  expect(deliveries.map((span) => span.attributes["chorus.platform.status"])).toEqual(["network", "sent"]);
  const [first, retry] = deliveries as [ReadableSpan, ReadableSpan];
  // The first attempt ran right after the commit, inside the turn; the retry came from the poll, long after it.
  expect(first.spanContext().traceId).toBe(turn.spanContext().traceId);
  expect(retry.attributes["chorus.outbox.attempt"]).toBe(2);
  expect(retry.spanContext().traceId).toBe(turn.spanContext().traceId);
  expect(retry.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
  const [entry] = await h.store.listOutbox({ status: "sent" });
  expect(entry?.traceparent).toBe(`00-${turn.spanContext().traceId}-${turn.spanContext().spanId}-01`);
});
