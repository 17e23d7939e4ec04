import { ChannelError } from "@chorus/channel";
import { captureTelemetry, type TelemetryCapture } from "@chorus/testkit";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterEach, beforeEach, expect, it } from "vitest";
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

/** Sends `text` with the channel's first send failing (retryably); resolves once the one answer is there. */
async function answeredAfterARetry(text: string, script?: string[]): Promise<void> {
  h = await startHarness({
    ...(script === undefined ? {} : { script }),
    gateway: { outbox: { baseRetryMs: 5, pollMs: 10 } },
  });
  h.channel.failNext("send", () => new ChannelError("network", "connect ECONNREFUSED"), 1);
  await h.send({ text });
  await expect.poll(() => chatTexts(h.channel, "dm-user-1").length, { timeout: 5_000 }).toBe(1);
  await h.gateway.idle();
}

/**
 * The two deliveries (failed, then sent by the poll) are in `parent`'s trace; the retry came from the poll, after the
 * work that wrote the entry had ended: its parent is the span stored with the entry.
 */
async function expectRetryUnder(parent: ReadableSpan): Promise<void> {
  const deliveries = capture.spans().filter((span) => span.name === "deliver test");
  expect(deliveries.map((span) => span.attributes["chorus.platform.status"])).toEqual(["network", "sent"]);
  const [first, retry] = deliveries as [ReadableSpan, ReadableSpan];
  expect(first.spanContext().traceId).toBe(parent.spanContext().traceId);
  expect(retry.attributes["chorus.outbox.attempt"]).toBe(2);
  expect(retry.spanContext().traceId).toBe(parent.spanContext().traceId);
  expect(retry.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  const [entry] = await h.store.listOutbox({ status: "sent" });
  expect(entry?.traceparent).toBe(`00-${parent.spanContext().traceId}-${parent.spanContext().spanId}-01`);
}

it("sends a reply retried by the outbox poll in the trace of the turn that wrote it, under its invoke_agent span", async () => {
  await answeredAfterARetry("question", ["the answer"]);
  expect(chatTexts(h.channel, "dm-user-1")).toEqual(["the answer"]);
  await expectRetryUnder(capture.spans().find((span) => span.name === "invoke_agent main") as ReadableSpan);
});

it("sends a command's answer retried by the outbox poll in the command message's trace, under its inbound span", async () => {
  await answeredAfterARetry("/help");
  const inbound = capture.spans().find((span) => span.name === "inbound test") as ReadableSpan;
  expect(inbound.attributes["chorus.inbound.verdict"]).toBe("command");
  await expectRetryUnder(inbound);
});
