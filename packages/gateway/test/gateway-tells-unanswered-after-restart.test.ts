import { userMessage } from "@chorus/core/testing";
import { MemorySessionStore } from "@chorus/store";
import { afterEach, expect, it } from "vitest";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

const UNANSWERED_NOTICE = "I was restarted before I could answer — reply 'continue' and I will.";
const ANN = { key: "main:main:test:dm:ann", agentId: "main", channel: "test", accountId: "main", chatId: "dm-ann" };

let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A store holding Ann's message as a process that died before its turn began would have left it. */
async function storeWithWaitingMessage(): Promise<MemorySessionStore> {
  const store = new MemorySessionStore();
  await store.storeInboundMessage({
    event: { channel: "test", accountId: "main", eventId: "e-1" },
    session: ANN,
    message: userMessage("are you there?"),
  });
  return store;
}

it("tells a chat whose message was still waiting for its turn at the restart, once", async () => {
  const store = await storeWithWaitingMessage();
  h = await startHarness({ store, script: () => "Yes, here." });
  await expect.poll(() => chatTexts(h!.channel, "dm-ann")).toEqual([UNANSWERED_NOTICE]);
  await h.close();

  // Another restart without a word from Ann: she is not told again.
  h = await startHarness({ store, script: () => "Yes, here." });
  await h.gateway.idle();
  expect(chatTexts(h.channel, "dm-ann")).toEqual([]);
  expect(await store.listUnansweredSessions()).toEqual([]);
});

it("answers the waiting message when the chat replies 'continue'", async () => {
  const store = await storeWithWaitingMessage();
  h = await startHarness({ store, script: () => "Yes, here." });
  await expect.poll(() => chatTexts(h!.channel, "dm-ann")).toEqual([UNANSWERED_NOTICE]);
  await h.send({ text: "continue", sender: { id: "ann", name: "Ann" } });
  expect(chatTexts(h.channel, "dm-ann")).toEqual([UNANSWERED_NOTICE, "Yes, here."]);
  // The model saw the waiting message before the 'continue'.
  const users = h.streamFn.calls[0]?.context.messages.filter((m) => m.role === "user").map((m) => m.content);
  expect(users).toEqual(["are you there?", "continue"]);
});

it("counts what a turn took in — its prompt and a message steered into it — as answered", async () => {
  h = await startHarness({ script: [{ text: "slow", endDelayMs: 200 }, "second"] });
  await h.channel.inject({ text: "one", sender: { id: "ann", name: "Ann" } });
  await h.channel.inject({ text: "two", sender: { id: "ann", name: "Ann" } });
  await h.gateway.idle();
  expect(h.streamFn.calls).toHaveLength(2); // "two" joined the running turn
  expect(await h.store.listUnansweredSessions()).toEqual([]);
});

it("counts queued follow-ups as answered once their own turns end", async () => {
  h = await startHarness({
    script: [{ text: "slow", endDelayMs: 200 }, "second"],
    config: {
      agents: [{ id: "main", model: "fake-model" }],
      channels: [{ channel: "test", dmPolicy: "open", queueMode: "followup" }],
    },
  });
  await h.channel.inject({ text: "one", sender: { id: "ann", name: "Ann" } });
  await h.channel.inject({ text: "two", sender: { id: "ann", name: "Ann" } });
  await h.gateway.idle();
  expect(chatTexts(h.channel, "dm-ann")).toEqual(["slow", "second"]);
  expect(await h.store.listUnansweredSessions()).toEqual([]);
});
