import { describe, expect, it } from "vitest";
import { type BusDelivery, type GatewayEvent, GatewayEventBus } from "../src/index.js";

const received = (n: number): GatewayEvent => ({
  type: "message_received",
  at: n,
  sessionKey: "a:b:c:dm:1",
  agentId: "a",
  channel: "c",
  accountId: "b",
  chatId: "1",
  messageId: `m${n}`,
  senderId: "u",
});

/** A gate the test opens by hand, so the "slow" subscriber is slow without any timers. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const describeDelivery = (delivery: BusDelivery): string =>
  delivery.type === "dropped"
    ? `dropped:${delivery.count}`
    : delivery.type === "message_received"
      ? delivery.messageId
      : delivery.type;

describe("gateway event bus", () => {
  it("a slow subscriber loses the oldest events, is told how many, and never holds up the publisher or others", async () => {
    const bus = new GatewayEventBus();
    const slowSeen: string[] = [];
    const fastSeen: string[] = [];
    const firstArrived = gate();
    const release = gate();
    const slow = bus.subscribe(
      async (delivery) => {
        slowSeen.push(describeDelivery(delivery));
        if (slowSeen.length === 1) {
          firstArrived.open();
          await release.opened; // stuck on its first event
        }
      },
      { bufferSize: 4 },
    );
    bus.subscribe((delivery) => {
      fastSeen.push(describeDelivery(delivery));
    });

    bus.publish(received(1));
    await firstArrived.opened;
    for (let n = 2; n <= 20; n++) bus.publish(received(n)); // returns at once although the slow subscriber is stuck
    expect(slowSeen).toEqual(["m1"]);

    release.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(slowSeen).toEqual(["m1", "dropped:15", "m17", "m18", "m19", "m20"]);
    expect(slow.dropped).toBe(15);
    expect(fastSeen).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 1}`));
  });

  it("keeps delivering to a subscriber whose handler throws, and reports the error", async () => {
    const errors: unknown[] = [];
    const bus = new GatewayEventBus({ onSubscriberError: (error) => errors.push(error) });
    const seen: string[] = [];
    bus.subscribe((delivery) => {
      seen.push(describeDelivery(delivery));
      if (seen.length === 1) throw new Error("subscriber bug");
    });
    expect(() => bus.publish(received(1))).not.toThrow();
    bus.publish(received(2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["m1", "m2"]);
    expect(errors).toEqual([new Error("subscriber bug")]);
  });

  it("filters by type and stops after unsubscribe", async () => {
    const bus = new GatewayEventBus();
    const seen: string[] = [];
    const subscription = bus.subscribe((delivery) => void seen.push(describeDelivery(delivery)), {
      types: ["run_started"],
    });
    bus.publish(received(1));
    bus.publish({ type: "run_started", at: 0, runId: "r1", sessionKey: "k", agentId: "a", depth: 0 });
    await new Promise((resolve) => setImmediate(resolve));
    subscription.unsubscribe();
    bus.publish({ type: "run_started", at: 0, runId: "r2", sessionKey: "k", agentId: "a", depth: 0 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["run_started"]);
    expect(bus.subscriberCount).toBe(0);
  });

  it("can be read as an async stream, with the same dropped notices", async () => {
    const bus = new GatewayEventBus();
    const stream = bus.stream({ bufferSize: 2 });
    for (let n = 1; n <= 5; n++) bus.publish(received(n));
    const seen: string[] = [];
    setImmediate(() => bus.publish(received(6)));
    for await (const delivery of stream) {
      seen.push(describeDelivery(delivery));
      if (seen.length === 4) break;
    }
    expect(seen).toEqual(["dropped:3", "m4", "m5", "m6"]);
    expect(bus.subscriberCount).toBe(0);
  });

  it("ends a stream when its signal aborts", async () => {
    const bus = new GatewayEventBus();
    const controller = new AbortController();
    const stream = bus.stream({ signal: controller.signal });
    const done = (async () => {
      const seen: BusDelivery[] = [];
      for await (const delivery of stream) seen.push(delivery);
      return seen;
    })();
    bus.publish(received(1));
    setImmediate(() => controller.abort());
    expect((await done).map(describeDelivery)).toEqual(["m1"]);
  });
});
