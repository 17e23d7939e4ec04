import { afterEach, describe, expect, it } from "vitest";
import { MESSAGE_NOT_STORED_NOTICE } from "../src/gateway/message-not-stored.js";
import { MemorySessionStore, SessionStoreError } from "../src/store/index.js";
import type { InboundMessageStored, NewInboundMessage } from "../src/store/store-types.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

/** A store whose disk is full until `failing` is cleared. */
class FullDiskStore extends MemorySessionStore {
  failing = true;

  override storeInboundMessage(input: NewInboundMessage): Promise<InboundMessageStored | undefined> {
    if (this.failing) {
      return Promise.reject(new SessionStoreError("io", "Cannot write the session store: database or disk is full"));
    }
    return super.storeInboundMessage(input);
  }
}

describe("a message the store cannot take", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("is not acted on, its sender is told so at once, and the platform's redelivery is answered later", async () => {
    const store = new FullDiskStore();
    h = await startHarness({ script: ["the answer"], store });
    const message = { text: "question", chatType: "group" as const, mentionsBot: true, eventId: "ev-1" };

    await h.send(message);
    const said = h.channel.calls.filter((call) => call.op === "send");
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ outbound: { text: MESSAGE_NOT_STORED_NOTICE } });
    // Answered in the group, under the message that was lost.
    expect(said[0]?.target).toMatchObject({ chatType: "group", replyToMessageId: expect.any(String) });
    expect(h.streamFn.calls).toHaveLength(0);
    expect(await store.listSessions()).toEqual([]);

    // Its event id was not kept either: when the platform delivers it again, it is handled.
    store.failing = false;
    await h.send(message);
    expect(h.streamFn.calls).toHaveLength(1);
    await expect.poll(() => h.channel.calls.filter((call) => call.op === "send").length).toBe(2);
    expect(h.channel.calls.filter((call) => call.op === "send").at(-1)).toMatchObject({
      outbound: { text: "the answer" },
    });
  });
});
