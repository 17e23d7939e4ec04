import { TestChannel } from "@chorus/channel";
import { fakeModel, userMessage } from "@chorus/core/testing";
import { captureTelemetry, type TelemetryCapture } from "@chorus/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { PreparedAgent } from "../src/gateway/prepare-agent.js";
import { SessionRuntime, type SessionRuntimeDeps } from "../src/gateway/session-runtime.js";
import { startInboundTrace } from "../src/telemetry/inbound-trace.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

let capture: TelemetryCapture;
let h: Harness | undefined;

beforeEach(() => {
  capture = captureTelemetry();
});

afterEach(async () => {
  await h?.close();
  h = undefined;
  await capture.stop();
});

const inboundSpans = () => capture.spans().filter((span) => span.name === "inbound test");

/**
 * A session runtime whose turns never get a slot: what it was handed stays queued, so only the intake's side of a
 * message shows. Nothing else of the gateway is needed for a message it has already taken.
 */
function runtimeThatNeverRuns(): SessionRuntime {
  const deps = {
    admission: { request: () => {} },
    maxQueued: 10,
    collectDebounceMs: 0,
  } as unknown as SessionRuntimeDeps;
  const prepared = { config: { compaction: { pruning: [] } }, defaultModel: fakeModel() } as unknown as PreparedAgent;
  const session = { key: "main:main:test:dm:u1", agentId: "main", settings: {} } as never;
  const chat = { channel: "test", accountId: "main", target: { chatType: "dm" as const, chatId: "dm-u1" } };
  return new SessionRuntime(deps, prepared, session, chat, "followup", undefined);
}

it("ends the inbound span with the dedupe verdict when the session had taken the stored message by its seq", async () => {
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const runtime = runtimeThatNeverRuns();
  const message = userMessage("hello");
  // A cluster instance's take-up (a wake-up, a takeover) queued seq 7 before the intake's own hand-over of it came.
  runtime.accept({ message, seq: 7, trust: "guest", source: "user" });
  const trace = startInboundTrace(channel.buildInbound({ text: "hello" }));
  trace.dedupe(false);
  trace.verdict("accepted");
  runtime.accept({ message, seq: 7, trust: "owner", source: "user", trace });
  trace.intakeDone();

  expect(inboundSpans().map((span) => span.attributes)).toEqual([
    expect.objectContaining({ "chorus.inbound.dedupe": "duplicate", "chorus.inbound.verdict": "duplicate" }),
  ]);
});

it("ends the inbound span of a queued message whose session goes to another instance", async () => {
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const runtime = runtimeThatNeverRuns();
  const trace = startInboundTrace(channel.buildInbound({ text: "hello" }));
  trace.verdict("accepted");
  runtime.accept({ message: userMessage("hello"), seq: 3, trust: "owner", source: "user", trace });
  trace.intakeDone();
  expect(inboundSpans()).toEqual([]); // waiting for its turn
  runtime.giveBackQueued();
  expect(inboundSpans().map((span) => span.attributes["chorus.inbound.verdict"])).toEqual(["handed_off"]);
});

it("ends the inbound span of a replayed event id with the dedupe verdict", async () => {
  h = await startHarness();
  await h.send({ text: "hello", eventId: "evt-1" });
  await h.send({ text: "hello", eventId: "evt-1" });
  const verdicts = inboundSpans().map((span) => [
    span.attributes["chorus.inbound.dedupe"],
    span.attributes["chorus.inbound.verdict"],
  ]);
  expect(verdicts).toEqual([
    ["new", "accepted"],
    ["duplicate", "duplicate"],
  ]);
});

it("gives a replayed pairing request the dedupe verdict, not a second pairing", async () => {
  h = await startHarness({
    config: { agents: [{ id: "main", model: "fake-model" }], channels: [{ channel: "test" }] },
  });
  await h.send({ text: "hello?", eventId: "evt-ann", sender: { id: "ann", name: "Ann" } });
  await h.send({ text: "hello?", eventId: "evt-ann", sender: { id: "ann", name: "Ann" } });
  const verdicts = inboundSpans().map((span) => [
    span.attributes["chorus.inbound.dedupe"],
    span.attributes["chorus.inbound.verdict"],
  ]);
  expect(verdicts).toEqual([
    ["new", "pairing"],
    ["duplicate", "duplicate"],
  ]);
});
