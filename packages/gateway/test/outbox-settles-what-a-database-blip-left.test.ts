import { ChannelError } from "@chorus/channel";
import { afterEach, describe, expect, it } from "vitest";
import { BlinkingStore } from "./fixtures/blinking-store.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

const networkDown = () => new ChannelError("network", "telegram send failed: connect ECONNREFUSED");
const OUTBOX = { pollMs: 20, baseRetryMs: 20, reclaimInFlightAfterMs: 300 };

/** Brings the database back after `ms`. */
function backAfter(store: BlinkingStore, ms: number): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      store.down = false;
      resolve();
    }, ms),
  );
}

describe("the outbox after a database blip", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("marks a reply sent during the blip once the store is back, never sends it twice, and holds nothing behind it", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["first answer", "second answer"], gateway: { outbox: OUTBOX } });
    // The reply reaches the platform; then the database goes away: marking it sent fails, and so would a failure.
    store.onceBefore("markOutboxSent", () => {
      store.down = true;
    });
    await h.send({ text: "first question" });
    expect(store.refused.get("markOutboxSent")).toBe(1);
    await backAfter(store, 150);
    await h.send({ text: "second question" });

    await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 }).toHaveLength(2);
    await expect
      .poll(async () => (await store.listOutbox()).map((entry) => entry.status), { timeout: 5_000 })
      .toEqual(["sent", "sent"]);
    // Past the in-flight bound: nothing is reclaimed and sent again.
    await new Promise((resolve) => setTimeout(resolve, 2 * OUTBOX.reclaimInFlightAfterMs));
    expect(chatTexts(h.channel, "dm-user-1")).toEqual(["first answer", "second answer"]);
  });

  it("retries a failed send whose failure could not be recorded, once the store is back", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["the answer", "the next answer"], gateway: { outbox: OUTBOX } });
    h.channel.failNext("send", networkDown, 1);
    store.onceBefore("markOutboxFailed", () => {
      store.down = true;
    });
    await h.send({ text: "question" });
    expect(store.refused.get("markOutboxFailed")).toBe(1);
    await backAfter(store, 150);
    await h.send({ text: "next question" });

    await expect
      .poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 })
      .toEqual(["the answer", "the next answer"]);
    await expect
      .poll(async () => (await store.listOutbox()).map((entry) => entry.status), { timeout: 5_000 })
      .toEqual(["sent", "sent"]);
  });

  it("sends a reply whose commit applied while its answer was lost", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["the answer"], gateway: { outbox: OUTBOX } });
    // The turn's commit writes the reply already claimed (in-flight); the gateway never hears that it did.
    store.loseAnswerOf("commitTurn");
    await h.send({ text: "question" });

    await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 }).toEqual(["the answer"]);
    await new Promise((resolve) => setTimeout(resolve, 2 * OUTBOX.reclaimInFlightAfterMs));
    expect(chatTexts(h.channel, "dm-user-1")).toEqual(["the answer"]);
    expect((await store.listOutbox()).map((entry) => entry.status)).toEqual(["sent"]);
  });
});
