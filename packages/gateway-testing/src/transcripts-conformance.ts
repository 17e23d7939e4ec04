import type { AgentMessage } from "@chorus/core";
import { assistantText, userMessage } from "@chorus/core/testing";
import type { SessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";
import { dmSession } from "./conformance-fixtures.js";
import { openStoreEachTest } from "./store-per-test.js";
import { rejection } from "./store-rejection.js";

/** Part of the conformance suite: transcripts append in seq order, stay as written, reset keeping history. */
export function describeTranscripts(open: () => ClockedStore): void {
  describe("transcripts", () => {
    let store: SessionStore;
    openStoreEachTest(open, (opened) => {
      store = opened.store;
    });

    it("appends with increasing seqs and reads the whole transcript back in order", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      const turn1: AgentMessage[] = [userMessage("What is 2+2?"), assistantText("4")];
      const turn2: AgentMessage[] = [userMessage("And 3+3? 🙂"), assistantText("6")];
      expect(await store.appendMessages(key, turn1)).toEqual({ firstSeq: 1, lastSeq: 2 });
      expect(await store.appendMessages(key, turn2)).toEqual({ firstSeq: 3, lastSeq: 4 });
      const entries = await store.readTranscript(key);
      expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(entries.map((e) => e.message)).toEqual([...turn1, ...turn2]);
      expect((await store.getSession(key))?.lastSeq).toBe(4);
      expect((await store.readTranscript(key, { fromSeq: 3 })).map((e) => e.seq)).toEqual([3, 4]);
    });

    it("keeps what was appended even if the caller later mutates its objects", async () => {
      await store.ensureSession(dmSession());
      const message = userMessage("original");
      await store.appendMessages(dmSession().key, [message]);
      message.content = "changed";
      const [entry] = await store.readTranscript(dmSession().key);
      expect(entry?.message).toMatchObject({ content: "original" });
    });

    it("refuses to append to an unknown session or a message that is not JSON, and writes nothing", async () => {
      expect((await rejection(store.appendMessages("missing", [userMessage("x")]))).code).toBe("not-found");
      await store.ensureSession(dmSession());
      const bad = { ...userMessage("x"), content: 10n } as unknown as AgentMessage;
      const error = await rejection(store.appendMessages(dmSession().key, [userMessage("ok"), bad]));
      expect(error.code).toBe("invalid-input");
      expect(await store.readTranscript(dmSession().key)).toEqual([]);
      expect((await store.getSession(dmSession().key))?.lastSeq).toBe(0);
    });

    it("starts afresh on reset without deleting history or reusing seqs", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      await store.appendMessages(key, [userMessage("old 1"), assistantText("old 2")]);
      const reset = await store.resetTranscript(key);
      expect(reset.transcriptStartSeq).toBe(3);
      expect(await store.readTranscript(key)).toEqual([]);
      await store.appendMessages(key, [userMessage("new")]);
      expect((await store.readTranscript(key)).map((e) => e.seq)).toEqual([3]);
      expect((await store.readTranscript(key, { fromSeq: 1 })).map((e) => e.seq)).toEqual([1, 2, 3]);
      expect((await rejection(store.resetTranscript("missing"))).code).toBe("not-found");
    });

    it("reads an unknown session's transcript as empty", async () => {
      expect(await store.readTranscript("never-seen")).toEqual([]);
    });
  });
}
