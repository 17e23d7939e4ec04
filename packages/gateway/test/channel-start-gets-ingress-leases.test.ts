import type { ChannelStartContext, InboundSink } from "@chorus/channel";
import { TestChannel } from "@chorus/channel";
import type { StreamFn } from "@chorus/core";
import { fakeModel } from "@chorus/core/testing";
import { MemorySessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import { type IngressLeases, localIngress } from "../src/ownership/index.js";
import { Gateway } from "../src/runtime-index.js";

/** A TestChannel that keeps what the gateway gave it at start. */
class ContextChannel extends TestChannel {
  context: ChannelStartContext | undefined;
  override async start(sink: InboundSink, context?: ChannelStartContext): Promise<void> {
    this.context = context;
    await super.start(sink);
  }
}

const model = fakeModel();
const neverCalled: StreamFn = () => {
  throw new Error("no model call in this test");
};

function gatewayOn(store: MemorySessionStore, channel: ContextChannel): Gateway {
  return new Gateway({
    config: { agents: [{ id: "main", model: model.id }], channels: [{ channel: "test" }] },
    store,
    channels: [channel],
    streamFn: neverCalled,
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    titles: false,
  });
}

describe("ingress leases at channel start", () => {
  it("gives a channel local ingress when the store has no ownership: every unit runs here at once, until withdrawn", async () => {
    const channel = new ContextChannel({ id: "test", accountId: "main" });
    const gateway = gatewayOn(new MemorySessionStore(), channel);
    await gateway.start();
    try {
      expect(channel.context?.ingress).toBe(localIngress);
      const log: string[] = [];
      const unit = await localIngress.run("poll", {
        start: async (lease) => {
          log.push(`start ${lease.unit} epoch ${lease.epoch}`);
        },
        stop: async () => {
          log.push("stop");
        },
      });
      expect(log).toEqual(["start poll epoch 0"]);
      await unit.withdraw();
      await unit.withdraw();
      expect(log).toEqual(["start poll epoch 0", "stop"]);
      expect(await localIngress.pace("identify:0", 5000)).toBe(0);
    } finally {
      await gateway.stop(0);
    }
  });

  it("gives a channel the store's ingress leases in a cluster", async () => {
    const ingress: IngressLeases = { run: localIngress.run, pace: async () => 0 };
    const store = Object.assign(new MemorySessionStore(), {
      ownership: {
        instanceId: "a",
        ingress,
        start: async () => {},
        fenceFor: () => undefined,
        handOff: async () => {},
        stop: async () => {},
      },
    });
    const channel = new ContextChannel({ id: "test", accountId: "main" });
    const gateway = gatewayOn(store, channel);
    await gateway.start();
    try {
      expect(channel.context?.ingress).toBe(ingress);
    } finally {
      await gateway.stop(0);
    }
  });
});
