import { assistantText, toolResult, userMessage } from "@chorus/core/testing";
import type { SessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";
import { dmSession, usage } from "./conformance-fixtures.js";
import { openStoreEachTest } from "./store-per-test.js";
import { rejection } from "./store-rejection.js";

/** Part of the conformance suite: `commitTurn` and transactions write all or nothing; a closed store refuses calls. */
export function describeTurnsAndTransactions(open: () => ClockedStore): void {
  describe("turns and transactions", () => {
    let store: SessionStore;
    openStoreEachTest(open, (opened) => {
      store = opened.store;
    });

    it("commits a turn's messages, run end and replies together", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      await store.startRun({ id: "run-1", sessionKey: key, agentId: "main" });
      await store.appendMessages(key, [userMessage("Summarise my day")]);
      const result = await store.commitTurn({
        sessionKey: key,
        messages: [assistantText("You had 3 meetings.")],
        run: { id: "run-1", patch: { status: "completed", usage: usage(42, 0.001) } },
        outbox: [{ sessionKey: key, runId: "run-1", kind: "reply", payload: { text: "You had 3 meetings." } }],
      });
      expect(result).toMatchObject({ firstSeq: 2, lastSeq: 2, run: { status: "completed" } });
      expect(result.outbox.map((e) => e.status)).toEqual(["pending"]);
      expect((await store.readTranscript(key)).length).toBe(2);
      expect((await store.listOutbox({ status: "pending" })).map((e) => e.payload)).toEqual([
        { text: "You had 3 meetings." },
      ]);
    });

    it("writes nothing of a turn whose run change is refused", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      await store.startRun({ id: "run-1", sessionKey: key, agentId: "main" });
      await store.updateRun("run-1", { status: "aborted" });
      const turn = store.commitTurn({
        sessionKey: key,
        messages: [userMessage("q"), assistantText("a")],
        run: { id: "run-1", patch: { status: "completed" } },
        outbox: [{ sessionKey: key, kind: "reply", payload: "a" }],
      });
      expect((await rejection(turn)).code).toBe("invalid-state");
      expect(await store.readTranscript(key)).toEqual([]);
      expect((await store.getSession(key))?.lastSeq).toBe(0);
      expect(await store.listOutbox()).toEqual([]);
      expect(await store.appendMessages(key, [userMessage("next")])).toEqual({ firstSeq: 1, lastSeq: 1 });
    });

    it("writes a turn's run with its first commit when asked to start it, and ends it with a later one", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      const first = await store.commitTurn({
        sessionKey: key,
        messages: [assistantText("calling a tool")],
        run: { id: "run-1", start: { agentId: "main" } },
      });
      expect(first.run).toMatchObject({ id: "run-1", sessionKey: key, agentId: "main", depth: 0, status: "running" });
      expect((await store.listRuns({ status: "running" })).map((run) => run.id)).toEqual(["run-1"]);
      // Carrying `start` again (the first commit's outcome was unknown to the caller) changes nothing of the start.
      const last = await store.commitTurn({
        sessionKey: key,
        messages: [assistantText("done")],
        run: { id: "run-1", start: { agentId: "main" }, patch: { status: "completed", usage: usage(42, 0.001) } },
      });
      expect(last.run).toMatchObject({ id: "run-1", status: "completed", usage: { totalTokens: 42 } });
      expect(last.run?.startedAt).toBe(first.run?.startedAt);
      expect(await store.listRuns()).toHaveLength(1);
    });

    it("starts and ends a run in one commit, and refuses to start over an ended run", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      const result = await store.commitTurn({
        sessionKey: key,
        messages: [assistantText("quick")],
        run: { id: "run-1", start: { agentId: "main" }, patch: { status: "completed" } },
        outbox: [{ sessionKey: key, runId: "run-1", kind: "reply", payload: "quick" }],
      });
      expect(result.run).toMatchObject({ status: "completed", depth: 0 });
      expect(result.run?.endedAt).toBeDefined();
      const again = store.commitTurn({
        sessionKey: key,
        messages: [assistantText("late")],
        run: { id: "run-1", start: { agentId: "main" } },
      });
      expect((await rejection(again)).code).toBe("invalid-state");
      expect((await store.readTranscript(key)).length).toBe(1);
    });

    it("starts the transcript afresh at a commit's messages when asked (a compaction), in the same write", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      await store.appendMessages(key, [userMessage("old question"), assistantText("old answer")]);
      const result = await store.commitTurn({
        sessionKey: key,
        messages: [userMessage("summary of before")],
        startsTranscript: true,
      });
      expect(result).toMatchObject({ firstSeq: 3, lastSeq: 3 });
      expect((await store.readTranscript(key)).map((entry) => entry.seq)).toEqual([3]);
      expect((await store.readTranscript(key, { fromSeq: 1 })).length).toBe(3);
      await store.appendMessages(key, [assistantText("next")]);
      expect((await store.readTranscript(key)).map((entry) => entry.seq)).toEqual([3, 4]);
    });

    it("writes no run for a turn whose commit is refused", async () => {
      const turn = store.commitTurn({
        sessionKey: "no-such-session",
        messages: [assistantText("a")],
        run: { id: "run-1", start: { agentId: "main" } },
      });
      expect((await rejection(turn)).code).toBe("not-found");
      expect(await store.getRun("run-1")).toBeUndefined();
    });

    it("commits a transaction's writes when it resolves", async () => {
      const key = dmSession().key;
      const value = await store.transaction(async (tx) => {
        await tx.ensureSession(dmSession());
        await tx.appendMessages(key, [userMessage("hi"), toolResult("call_1", "lookup", "found")]);
        await tx.enqueueOutbox([{ sessionKey: key, kind: "notice", payload: "hello" }]);
        return "done";
      });
      expect(value).toBe("done");
      expect((await store.readTranscript(key)).length).toBe(2);
      expect((await store.listOutbox()).length).toBe(1);
    });

    it("rolls back every write of a transaction that throws, and rethrows", async () => {
      await store.ensureSession(dmSession("kept"));
      const failure = new Error("tool crashed");
      const outcome = store.transaction(async (tx) => {
        await tx.ensureSession(dmSession());
        await tx.appendMessages(dmSession().key, [userMessage("lost")]);
        await tx.appendMessages("kept", [userMessage("lost too")]);
        await tx.startRun({ id: "r", sessionKey: "kept", agentId: "main" });
        await tx.recordInboundEvent({ channel: "telegram", accountId: "bot", eventId: "e1" });
        await tx.enqueueOutbox([{ sessionKey: "kept", kind: "reply", payload: "lost" }]);
        await tx.updateSession("kept", { title: "lost" });
        throw failure;
      });
      await expect(outcome).rejects.toBe(failure);
      expect(await store.getSession(dmSession().key)).toBeUndefined();
      const kept = await store.getSession("kept");
      expect(kept?.title).toBeUndefined();
      expect(kept?.lastSeq).toBe(0);
      expect(await store.readTranscript("kept")).toEqual([]);
      expect(await store.getRun("r")).toBeUndefined();
      expect(await store.listOutbox()).toEqual([]);
      expect(await store.claimDueOutbox(10)).toEqual([]);
      expect(await store.recordInboundEvent({ channel: "telegram", accountId: "bot", eventId: "e1" })).toBe(true);
    });

    it("makes store calls wait while a transaction is open, so they never land inside it", async () => {
      await store.ensureSession(dmSession());
      let releaseTx: () => void = () => {};
      const txGate = new Promise<void>((resolve) => {
        releaseTx = resolve;
      });
      let txEntered: () => void = () => {};
      const entered = new Promise<void>((resolve) => {
        txEntered = resolve;
      });
      const outcome = store.transaction(async (tx) => {
        await tx.appendMessages(dmSession().key, [userMessage("inside")]);
        txEntered();
        await txGate;
        throw new Error("abandon");
      });
      await entered;
      const outside = store.appendMessages(dmSession().key, [userMessage("outside")]);
      let outsideSettled = false;
      void outside.then(() => {
        outsideSettled = true;
      });
      await Promise.resolve();
      await Promise.resolve();
      expect(outsideSettled).toBe(false);
      releaseTx();
      await expect(outcome).rejects.toThrow("abandon");
      expect(await outside).toEqual({ firstSeq: 1, lastSeq: 1 });
      expect(
        (await store.readTranscript(dmSession().key)).map((e) => (e.message as { content: string }).content),
      ).toEqual(["outside"]);
    });

    it("rejects a call on the store from inside its own transaction instead of waiting forever", async () => {
      await store.ensureSession(dmSession());
      const outcome = store.transaction(async (tx) => {
        await tx.appendMessages(dmSession().key, [userMessage("via tx")]);
        await store.appendMessages(dmSession().key, [userMessage("via store")]);
      });
      expect((await rejection(outcome)).code).toBe("invalid-state");
      expect(await store.readTranscript(dmSession().key)).toEqual([]);
      const nested = store.transaction(() => store.transaction(() => "inner"));
      expect((await rejection(nested)).code).toBe("invalid-state");
      expect(await store.appendMessages(dmSession().key, [userMessage("after")])).toEqual({ firstSeq: 1, lastSeq: 1 });
    });

    it("refuses a transaction handle used after its transaction ended", async () => {
      let escaped: Parameters<Parameters<SessionStore["transaction"]>[0]>[0] | undefined;
      await store.transaction((tx) => {
        escaped = tx;
      });
      expect((await rejection(escaped?.getSession("x") ?? Promise.resolve())).code).toBe("closed");
    });

    it("refuses calls after close", async () => {
      await store.close();
      await store.close();
      expect((await rejection(store.getSession("x"))).code).toBe("closed");
    });
  });
}
