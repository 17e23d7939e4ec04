import { afterEach, describe, expect, it } from "vitest";
import { BlinkingStore } from "./fixtures/blinking-store.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

/** The chat's session, made before its first message: a session that message creates has no transcript to read. */
const existingSession = {
  key: "main:main:test:dm:user-1",
  agentId: "main",
  channel: "test",
  accountId: "main",
  chatId: "dm-user-1",
};

describe("a turn that cannot start because the store does not answer (a database blip)", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("starts once the store is back, and its message is answered before the chat's next one", async () => {
    const store = new BlinkingStore();
    await store.ensureSession(existingSession);
    h = await startHarness({ store, script: ["first answer", "second answer"] });
    // The turn's transcript read is the first call to fail: the message itself was stored before the blip.
    store.onceBefore("readTranscript", () => {
      store.down = true;
      setTimeout(() => {
        store.down = false;
      }, 700);
    });
    const first = h.channel.inject({ text: "first question" });
    await first;
    await h.send({ text: "second question" });

    await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 10_000 }).toHaveLength(2);
    expect(chatTexts(h.channel, "dm-user-1")).toEqual(["first answer", "second answer"]);
    expect(store.refused.get("readTranscript")).toBeGreaterThanOrEqual(1);
    expect(await store.listUnansweredSessions()).toEqual([]);
  });

  it("tells the chat once it gave up, and leaves the message stored and unanswered", async () => {
    const store = new BlinkingStore();
    await store.ensureSession(existingSession);
    h = await startHarness({ store, script: ["never"], gateway: { turnStartRetry: { attempts: 2, baseDelayMs: 50 } } });
    // Only transcript reads fail (the notice's own write goes through).
    store.blinked.clear();
    store.blinked.add("readTranscript");
    store.down = true;
    await h.send({ text: "a question" });

    expect(chatTexts(h.channel, "dm-user-1")).toEqual(["Sorry, I could not start working on that. Please try again."]);
    // Tried, then retried twice.
    expect(store.refused.get("readTranscript")).toBe(3);
    store.down = false;
    expect((await store.listUnansweredSessions()).length).toBe(1);
  });
});
