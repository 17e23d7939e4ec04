import { isMessageNotStored } from "@chorus/channel";
import { afterEach, describe, expect, it } from "vitest";
import { BlinkingStore } from "./fixtures/blinking-store.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("a message the store could not take", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("is refused to a platform that redelivers (no notice), and answered once when it comes again", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["the answer"] });
    store.down = true;
    const update = { text: "question", messageId: "u-1", eventId: "u-1", platformRedelivers: true };
    const refused = await h.channel.inject(update).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isMessageNotStored(refused)).toBe(true);
    await h.gateway.idle();
    // Nothing is said: the platform sends the update again (a webhook answered 5xx).
    expect(chatTexts(h.channel, "dm-user-1")).toEqual([]);

    store.down = false;
    await h.send(update);
    expect(chatTexts(h.channel, "dm-user-1")).toEqual(["the answer"]);
  });

  it("is answered with the notice where the platform does not redeliver, once the store stayed away", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["the answer"], gateway: { inboundWriteRetryMs: 1000 } });
    store.down = true;
    await h.send({ text: "question" });
    expect(chatTexts(h.channel, "dm-user-1")).toEqual([expect.stringContaining("could not save your message")]);
    // The write was tried again before the sender was told (250 ms, then 500 ms later).
    expect(store.refused.get("storeInboundMessage")).toBe(3);
  });

  it("is stored and answered, without the notice, when the store is back within the retry window", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["the answer"] });
    store.down = true;
    setTimeout(() => {
      store.down = false;
    }, 400);
    await h.send({ text: "question" });
    expect(chatTexts(h.channel, "dm-user-1")).toEqual(["the answer"]);
  });

  it("is answered once, without the notice, when its write applied and only the answer was lost", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["the answer", "a second answer"] });
    store.loseAnswerOf("storeInboundMessage");
    await h.send({ text: "question" });
    expect(chatTexts(h.channel, "dm-user-1")).toEqual(["the answer"]);
    // Stored once: the retry found the event recorded and took the stored message.
    const key = (await store.listSessions())[0]?.key as string;
    const questions = (await store.readTranscript(key)).filter((entry) => entry.message.role === "user");
    expect(questions).toHaveLength(1);
    expect(await store.listUnansweredSessions()).toEqual([]);
  });
});
