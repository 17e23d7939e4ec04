import { afterEach, describe, expect, it } from "vitest";
import { BlinkingStore } from "./fixtures/blinking-store.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

const OUTBOX = { pollMs: 20, baseRetryMs: 20, reclaimInFlightAfterMs: 60_000 };
const SESSION = "agent:main:test:main:dm:dm-user-1";

/** The roles and texts of the stored transcript, to see nothing was written twice or left out. */
async function storedTurns(store: BlinkingStore): Promise<string[]> {
  const sessions = await store.listSessions();
  const key = sessions[0]?.key ?? SESSION;
  return (await store.readTranscript(key)).map((entry) => {
    const content = entry.message.content;
    const text =
      typeof content === "string" ? content : content.map((part) => ("text" in part ? part.text : "")).join("");
    return `${entry.message.role}: ${text}`;
  });
}

describe("a turn whose commit fails in a database blip", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("is committed once the store is back, and answered once, before the chat's next message", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["first answer", "second answer"], gateway: { outbox: OUTBOX } });
    store.onceBefore("commitTurn", () => {
      store.down = true;
      setTimeout(() => {
        store.down = false;
      }, 400);
    });
    await h.send({ text: "first question" });
    await h.send({ text: "second question" });

    await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 }).toHaveLength(2);
    expect(chatTexts(h.channel, "dm-user-1")).toEqual(["first answer", "second answer"]);
    expect(store.refused.get("commitTurn")).toBeGreaterThanOrEqual(1);
    expect(await storedTurns(store)).toEqual([
      "user: first question",
      "assistant: first answer",
      "user: second question",
      "assistant: second answer",
    ]);
    expect(await store.listUnansweredSessions()).toEqual([]);
  });

  it("whose answer was lost after it applied is not committed twice, and its reply goes out at once", async () => {
    const store = new BlinkingStore();
    h = await startHarness({ store, script: ["the answer"], gateway: { outbox: OUTBOX } });
    store.loseAnswerOf("commitTurn");
    await h.send({ text: "question" });

    // Well within the outbox's in-flight bound (60 s here): the committer found the commit applied and sent its reply.
    await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 3_000 }).toEqual(["the answer"]);
    expect(await storedTurns(store)).toEqual(["user: question", "assistant: the answer"]);
    await expect
      .poll(async () => (await store.listOutbox()).map((entry) => entry.status), { timeout: 3_000 })
      .toEqual(["sent"]);
  });
});
