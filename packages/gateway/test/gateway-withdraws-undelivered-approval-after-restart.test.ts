import { MemorySessionStore } from "@chorus/store";
import { afterEach, expect, it } from "vitest";
import { WITHDRAWN_BY_RESTART } from "../src/approvals/approvals-after-restart.js";
import type { ChatDeliveryPayload } from "../src/delivery/outbox-payloads.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

it("never delivers an approval request a restart left undelivered, and leaves settled ones alone", async () => {
  const store = new MemorySessionStore();
  // A first process creates the chat's session, then stops.
  h = await startHarness({ store, script: () => "hi", channel: { capabilities: { buttons: true } } });
  await h.send({ text: "hello", sender: { id: "ann", name: "Ann" } });
  await h.close();
  const session = (await store.listSessions())[0];
  if (session === undefined) throw new Error("no session");

  // What a crash left: a run waiting for approval of two calls. One request never went out (its send failed and was
  // rescheduled); the other went out and was settled (an approve) before the crash.
  const chat = { channel: "test", accountId: "main", target: { chatType: "dm", chatId: "dm-ann" } } as const;
  const request = (text: string): ChatDeliveryPayload => ({
    ...chat,
    text,
    buttons: [{ id: "/approve abc", label: "Approve" }],
    settleOnRestart: `${text}, withdrawn`,
  });
  await store.startRun({ id: "run-crashed", sessionKey: session.key, agentId: "main" });
  const [undelivered, settled] = await store.enqueueOutbox([
    { sessionKey: session.key, runId: "run-crashed", kind: "notice", payload: request("undelivered") },
    { sessionKey: session.key, runId: "run-crashed", kind: "notice", payload: request("settled") },
  ]);
  if (undelivered === undefined || settled === undefined) throw new Error("not queued");
  await store.claimOutboxEntry(settled.id);
  await store.markOutboxSent(settled.id, ["m-settled"]);
  const edit: ChatDeliveryPayload = {
    ...chat,
    text: "settled, approved",
    editMessageIds: ["m-settled"],
    editOnly: true,
  };
  const [settling] = await store.enqueueOutbox([
    { sessionKey: session.key, kind: "notice", payload: { ...edit, settles: settled.id } },
  ]);
  await store.claimOutboxEntry(settling?.id ?? -1);
  await store.markOutboxSent(settling?.id ?? -1, ["m-settled"]);

  // The restart: only the restart notice reaches the chat; nothing with buttons, no edit.
  h = await startHarness({ store, script: () => "hi", channel: { capabilities: { buttons: true } } });
  await h.gateway.idle();
  const sent = h.channel.succeeded("send").map((call) => call.outbound);
  expect(sent.map((outbound) => outbound.text)).toEqual([expect.stringContaining("I was restarted while working")]);
  expect(sent[0]?.buttons ?? []).toEqual([]);
  expect(h.channel.calls.filter((call) => call.op === "edit")).toEqual([]);

  const after = new Map((await store.listOutbox()).map((entry) => [entry.id, entry]));
  expect(after.get(undelivered.id)).toMatchObject({ status: "failed", lastError: WITHDRAWN_BY_RESTART });
  expect(after.get(settled.id)?.status).toBe("sent");
});
