import type { AgentMessage } from "@chorus/core";
import { assistantText, userMessage } from "@chorus/core/testing";
import { MEMORY_OFF_SETTING, type SessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";
import { dmSession } from "./conformance-fixtures.js";
import { openStoreEachTest } from "./store-per-test.js";
import { rejection } from "./store-rejection.js";

/** Part of the conformance suite: `storeInboundMessage`, unanswered sessions and memory marks. */
export function describeInboundMessages(open: () => ClockedStore): void {
  describe("inbound messages", () => {
    let h: ClockedStore;
    let store: SessionStore;
    openStoreEachTest(open, (opened) => {
      h = opened;
      store = opened.store;
    });

    const event = { channel: "telegram", accountId: "bot", eventId: "u-7" };

    it("records the event id, creates the session and appends the message in one call", async () => {
      const stored = await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("hi") });
      expect(stored).toEqual({
        session: {
          ...dmSession(),
          settings: {},
          createdAt: h.clock.now,
          updatedAt: h.clock.now,
          lastSeq: 0,
          transcriptStartSeq: 1,
        },
        created: true,
        seq: 1,
      });
      const next = await store.storeInboundMessage({
        event: { ...event, eventId: "u-8" },
        session: dmSession(),
        message: userMessage("again"),
      });
      expect(next).toMatchObject({ created: false, seq: 2, session: { lastSeq: 1 } });
      expect((await store.readTranscript(dmSession().key)).map((entry) => entry.seq)).toEqual([1, 2]);
      expect(await store.recordInboundEvent(event)).toBe(false);
    });

    it("drops a replayed event id and writes nothing", async () => {
      await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("hi") });
      const replay = await store.storeInboundMessage({
        event,
        session: dmSession("other-session"),
        message: userMessage("hi"),
      });
      expect(replay).toBeUndefined();
      expect(await store.getSession("other-session")).toBeUndefined();
      expect(await store.readTranscript(dmSession().key)).toHaveLength(1);
    });

    it("rejects a message that is not JSON and leaves the event id unrecorded, so a replay is handled", async () => {
      const cyclic: Record<string, unknown> = { role: "user" };
      cyclic.self = cyclic;
      const bad = store.storeInboundMessage({
        event,
        session: dmSession(),
        message: cyclic as unknown as AgentMessage,
      });
      expect((await rejection(bad)).code).toBe("invalid-input");
      expect(await store.getSession(dmSession().key)).toBeUndefined();
      const replay = await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("hi") });
      expect(replay?.seq).toBe(1);
    });

    it("reports a session whose inbound message no commit has answered, until one does", async () => {
      const key = dmSession().key;
      expect(await store.listUnansweredSessions()).toEqual([]);
      await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("first") });
      expect((await store.listUnansweredSessions()).map((s) => s.key)).toEqual([key]);
      // An assistant message alone (no answersSeq) answers nothing; a commit that answers seq 1 does.
      await store.appendMessages(key, [assistantText("thinking")]);
      expect((await store.listUnansweredSessions()).map((s) => s.key)).toEqual([key]);
      await store.commitTurn({ sessionKey: key, messages: [assistantText("done")], answersSeq: 1 });
      expect(await store.listUnansweredSessions()).toEqual([]);
      // A later message waits again; an empty commit can answer it too.
      await store.storeInboundMessage({
        event: { ...event, eventId: "u-9" },
        session: dmSession(),
        message: userMessage("second"),
      });
      expect((await store.listUnansweredSessions()).map((s) => s.key)).toEqual([key]);
      await store.commitTurn({ sessionKey: key, messages: [], answersSeq: (await store.getSession(key))!.lastSeq });
      expect(await store.listUnansweredSessions()).toEqual([]);
    });

    it("does not report messages from before the transcript start (/new), nor a deleted session", async () => {
      await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("old") });
      await store.resetTranscript(dmSession().key);
      expect(await store.listUnansweredSessions()).toEqual([]);
      await store.storeInboundMessage({
        event: { ...event, eventId: "u-10" },
        session: dmSession("other"),
        message: userMessage("hi"),
      });
      await store.deleteSession("other");
      expect(await store.listUnansweredSessions()).toEqual([]);
    });

    it("keeps each message's memory mark: its sender's tier, or off while the session's memory is off", async () => {
      const key = dmSession().key;
      const say = (eventId: string, text: string, memoryTier?: "owner" | "trusted" | "guest") =>
        store.storeInboundMessage({
          event: { ...event, eventId },
          session: dmSession(),
          message: userMessage(text),
          ...(memoryTier === undefined ? {} : { memoryTier }),
        });
      await say("m-1", "from the owner", "owner");
      await say("m-2", "from a guest", "guest");
      await store.updateSession(key, { settings: { [MEMORY_OFF_SETTING.key]: MEMORY_OFF_SETTING.value } });
      await say("m-3", "while memory is off", "trusted");
      await store.updateSession(key, { settings: {} });
      await say("m-4", "on again", "trusted");
      await say("m-5", "no tier given");
      await store.commitTurn({ sessionKey: key, messages: [assistantText("noted")], answersSeq: 5 });
      const marks = (await store.readTranscript(key)).map((entry) => [entry.seq, entry.memory]);
      expect(marks).toEqual([
        [1, "owner"],
        [2, "guest"],
        [3, "off"],
        [4, "trusted"],
        [5, undefined],
        [6, undefined],
      ]);
      expect((await store.readTranscript(key, { fromSeq: 3 }))[0]?.memory).toBe("off");
    });

    it("keeps how far memory extraction has read, only ever raising it", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      expect((await store.getSession(key))?.memoryExtractedSeq).toBeUndefined();
      expect((await store.updateSession(key, { memoryExtractedSeq: 4 })).memoryExtractedSeq).toBe(4);
      await store.updateSession(key, { memoryExtractedSeq: 2 });
      await store.updateSession(key, { title: "renamed" });
      expect(await store.getSession(key)).toMatchObject({ memoryExtractedSeq: 4, title: "renamed" });
    });

    it("keeps the waiting mark out of a transaction that rolls back", async () => {
      await store.ensureSession(dmSession());
      const failed = store.transaction(async (tx) => {
        await tx.storeInboundMessage({ event, session: dmSession(), message: userMessage("hi") });
        throw new Error("changed my mind");
      });
      await expect(failed).rejects.toThrow("changed my mind");
      expect(await store.listUnansweredSessions()).toEqual([]);
    });
  });
}
