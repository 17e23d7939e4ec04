import {
  type InboundMessageStored,
  MemorySessionStore,
  type NewInboundMessage,
  SessionStoreError,
} from "@chorus/store";
import { afterEach, expect, it } from "vitest";
import { MESSAGE_NOT_STORED_NOTICE } from "../src/gateway/message-not-stored.js";
import type { PairingScope } from "../src/policy/index.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

/** A store whose next inbound message write fails, as a full disk or a lock held too long would make it. */
class FailingOnceStore extends MemorySessionStore {
  failNext = false;
  /** The next pairing lookup fails, as a database that went away would make it (the first call a DM makes). */
  failNextLookup = false;
  override async isApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    if (this.failNextLookup) {
      this.failNextLookup = false;
      throw new SessionStoreError("io", "connection refused");
    }
    return super.isApproved(scope, senderId);
  }
  override async storeInboundMessage(input: NewInboundMessage): Promise<InboundMessageStored | undefined> {
    if (this.failNext) {
      this.failNext = false;
      throw new SessionStoreError("io", "disk full");
    }
    return super.storeInboundMessage(input);
  }
}

// The write is not tried again (by default it is, for 10 s): these failures are the store refusing it for good.
const NO_RETRY = { inboundWriteRetryMs: 0 };

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

it("answers a redelivered event whose first delivery could not be stored, instead of dropping it as a replay", async () => {
  const store = new FailingOnceStore();
  harness = await startHarness({ store, script: ["Hello!"], gateway: NO_RETRY });
  store.failNext = true;
  await harness.send({ text: "hi", eventId: "evt-1", messageId: "evt-1" });
  expect(await store.readTranscript("main:main:test:dm:user-1")).toEqual([]);
  // Not acted on, and the sender is told so at once rather than left waiting.
  expect(harness.streamFn.calls).toHaveLength(0);
  expect(chatTexts(harness.channel, "dm-user-1")).toEqual([MESSAGE_NOT_STORED_NOTICE]);

  // The platform delivers it again (no acknowledgement, a Slack retry, a RESUME): this time it is handled.
  await harness.send({ text: "hi", eventId: "evt-1", messageId: "evt-1" });
  expect(chatTexts(harness.channel, "dm-user-1")).toEqual([MESSAGE_NOT_STORED_NOTICE, "Hello!"]);
  const transcript = await store.readTranscript("main:main:test:dm:user-1");
  expect(transcript.map((entry) => entry.message.role)).toEqual(["user", "assistant"]);

  // …and a third delivery is a replay.
  await harness.send({ text: "hi", eventId: "evt-1", messageId: "evt-1" });
  expect(chatTexts(harness.channel, "dm-user-1")).toEqual([MESSAGE_NOT_STORED_NOTICE, "Hello!"]);
});

it("tells a DM sender the config does not know when the store fails before their message could be stored", async () => {
  const store = new FailingOnceStore();
  harness = await startHarness({ store, script: ["Hello!"], gateway: NO_RETRY });
  store.failNextLookup = true;
  await harness.send({ text: "hi", eventId: "evt-9", messageId: "evt-9" });
  expect(harness.streamFn.calls).toHaveLength(0);
  expect(chatTexts(harness.channel, "dm-user-1")).toEqual([MESSAGE_NOT_STORED_NOTICE]);
  // Nothing was kept, so the platform's redelivery is answered.
  await harness.send({ text: "hi", eventId: "evt-9", messageId: "evt-9" });
  expect(chatTexts(harness.channel, "dm-user-1")).toEqual([MESSAGE_NOT_STORED_NOTICE, "Hello!"]);
});

it("tells a group member under their own message when the store could not take it", async () => {
  const store = new FailingOnceStore();
  harness = await startHarness({ store, script: ["Hello!"], gateway: NO_RETRY });
  store.failNext = true;
  await harness.send({ text: "hi bot", chatType: "group", chatId: "g-1", mentionsBot: true, messageId: "m-7" });
  const sends = harness.channel.calls.filter((call) => call.op === "send");
  expect(sends).toEqual([
    expect.objectContaining({
      target: expect.objectContaining({ chatType: "group", chatId: "g-1", replyToMessageId: "m-7" }),
      outbound: expect.objectContaining({ text: MESSAGE_NOT_STORED_NOTICE }),
    }),
  ]);
  expect(await store.listSessions()).toEqual([]);
});
