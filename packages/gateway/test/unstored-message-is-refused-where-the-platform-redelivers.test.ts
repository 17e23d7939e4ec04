import { afterEach, describe, expect, it } from "vitest";
import { isMessageNotStored } from "../src/channel/index.js";
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

  it("is answered with the notice where the platform does not redeliver", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["the answer"] });
    store.down = true;
    await h.send({ text: "question" });
    expect(chatTexts(h.channel, "dm-user-1")).toEqual([expect.stringContaining("could not save your message")]);
  });
});
