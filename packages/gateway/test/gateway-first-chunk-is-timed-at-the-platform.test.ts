import type { OutboundMessage, SendTarget, SentMessage } from "@chorus/channel";
import { captureTelemetry, metricTotals, type TelemetryCapture } from "@chorus/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

let capture: TelemetryCapture;
let h: Harness;
/** Lets held sends go (a failed test must not leave the gateway waiting on them). */
let openSends: () => void = () => {};

beforeEach(() => {
  capture = captureTelemetry();
});

afterEach(async () => {
  openSends();
  await h.close();
  await capture.stop();
});

/** Holds every send of the channel until `open()`: the platform has not got the reply yet. */
function holdSends(harness: Harness): { open: () => void; attempted: Promise<void> } {
  const send = harness.channel.send.bind(harness.channel);
  const gate = new Promise<void>((resolve) => {
    openSends = resolve;
  });
  let attempt: () => void = () => {};
  const attempted = new Promise<void>((resolve) => {
    attempt = resolve;
  });
  harness.channel.send = async (target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> => {
    attempt();
    await gate;
    return send(target, outbound);
  };
  return { open: openSends, attempted };
}

async function firstChunks(): Promise<number> {
  return metricTotals(await capture.collectMetrics()).get("chorus.turn.first_chunk") ?? 0;
}

it("records chorus.turn.first_chunk when the reply's first chunk reaches the platform, not when the model wrote it", async () => {
  h = await startHarness({ script: ["the answer"] });
  const sends = holdSends(h);
  void h.channel.inject({ text: "question" });
  // The model has written the whole reply and the turn committed it; the platform has not taken it yet.
  await sends.attempted;
  expect(await firstChunks()).toBe(0);
  sends.open();
  await h.gateway.idle();
  expect(h.channel.transcript("dm-user-1")).toEqual(["the answer"]);
  expect(await firstChunks()).toBe(1);
});

it("counts a streamed preview's first message as the first chunk, once per turn", async () => {
  h = await startHarness({
    script: [{ blocks: [{ type: "text", text: "streamed answer", chunks: ["streamed ", "answer"] }], tokenDelayMs: 5 }],
    gateway: { replyMode: "preview" },
  });
  const sends = holdSends(h);
  void h.channel.inject({ text: "question" });
  await sends.attempted;
  expect(await firstChunks()).toBe(0);
  sends.open();
  await h.gateway.idle();
  expect(h.channel.transcript("dm-user-1")).toEqual(["streamed answer"]);
  expect(await firstChunks()).toBe(1);
});
