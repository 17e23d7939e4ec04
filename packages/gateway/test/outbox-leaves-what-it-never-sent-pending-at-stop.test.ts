import { TestChannel } from "@chorus/channel";
import { MemorySessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import { noticePayload } from "../src/delivery/chat-notices.js";
import { OutboxDispatcher } from "../src/delivery/outbox-dispatcher.js";
import { GatewayEventBus } from "../src/events/gateway-event-bus.js";

const chat = { channel: "test", accountId: "main", target: { chatType: "dm" as const, chatId: "dm-ann" } };

function dispatcherOn(store: MemorySessionStore, channel: TestChannel): OutboxDispatcher {
  return new OutboxDispatcher({
    store,
    channelFor: () => channel,
    events: new GatewayEventBus(),
    acceptSubagentResult: async () => {},
  });
}

describe("an outbox dispatcher that stopped", () => {
  it("leaves a reply handed over after its stop pending and unsent, so the next sender sends it as new, not as a resend", async () => {
    const store = new MemorySessionStore();
    const channel = new TestChannel({ id: "test", accountId: "main" });
    await channel.start(async () => {});
    const first = dispatcherOn(store, channel);
    await first.start();
    await first.stop();

    await store.ensureSession({ key: "s1", agentId: "main", channel: "test", accountId: "main", chatId: "dm-ann" });
    // A turn's commit that lands while the instance stops writes its reply claimed (in flight) and hands it over.
    const { outbox } = await store.commitTurn({
      sessionKey: "s1",
      messages: [],
      outbox: [{ sessionKey: "s1", kind: "notice", payload: noticePayload(chat, "the answer") }],
      claimOutbox: true,
    });
    await first.deliver(outbox);
    expect(channel.transcript("dm-ann")).toEqual([]);
    expect((await store.listOutbox()).map((entry) => entry.status)).toEqual(["pending"]);

    // The next start (or the next owner) sends it once, without "resent after restart": it never went out.
    const next = dispatcherOn(store, channel);
    await next.start();
    await next.idle();
    expect(channel.transcript("dm-ann")).toEqual(["the answer"]);
    await next.stop();
  });
});
