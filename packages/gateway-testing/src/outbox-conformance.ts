import type { SessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";
import { dmSession } from "./conformance-fixtures.js";
import { openStoreEachTest } from "./store-per-test.js";
import { rejection } from "./store-rejection.js";

/** Part of the conformance suite: the outbox (send exactly once, retries, in-flight recovery, pruning). */
export function describeOutbox(open: () => ClockedStore): void {
  describe("outbox", () => {
    let h: ClockedStore;
    let store: SessionStore;
    openStoreEachTest(open, (opened) => {
      h = opened;
      store = opened.store;
    });

    const reply = { sessionKey: "s", runId: "r1", kind: "reply" as const, payload: { text: "Hello!" } };

    it("moves an entry pending → in-flight → sent, exactly once", async () => {
      const [entry] = await store.enqueueOutbox([reply]);
      expect(entry).toEqual({
        id: entry?.id,
        ...reply,
        status: "pending",
        attempts: 0,
        createdAt: h.clock.now,
        updatedAt: h.clock.now,
        nextAttemptAt: h.clock.now,
        platformMessageIds: [],
      });
      const id = entry?.id ?? -1;
      const claimed = await store.claimOutboxEntry(id);
      expect(claimed).toMatchObject({ status: "in-flight", attempts: 1 });
      expect(await store.claimOutboxEntry(id)).toBeUndefined();
      const sent = await store.markOutboxSent(id, ["msg-1", "msg-2"]);
      expect(sent).toMatchObject({
        status: "sent",
        platformMessageIds: ["msg-1", "msg-2"],
        payload: { text: "Hello!" },
      });
      expect((await rejection(store.markOutboxSent(id, ["again"]))).code).toBe("invalid-state");
      expect(await store.claimOutboxEntry(id)).toBeUndefined();
      expect(await store.getOutboxEntry(id)).toEqual(sent);
    });

    it("returns entries detached from the caller's payload, as JSON round trips", async () => {
      const payload: { text: string; extra?: undefined } = { text: "Hello!", extra: undefined };
      await store.ensureSession({ ...dmSession(), key: "s" });
      const [entry] = await store.enqueueOutbox([{ ...reply, payload }]);
      const [claimed] = (
        await store.commitTurn({ sessionKey: "s", messages: [], outbox: [{ ...reply, payload }], claimOutbox: true })
      ).outbox;
      payload.text = "changed";
      expect(entry?.payload).toEqual({ text: "Hello!" });
      expect(Object.keys(entry?.payload as object)).toEqual(["text"]);
      expect(claimed).toMatchObject({ status: "in-flight", attempts: 1, payload: { text: "Hello!" } });
      const sent = await store.markOutboxSent(claimed?.id ?? -1, ["m-1"]);
      expect(structuredClone(sent)).toEqual(await store.getOutboxEntry(claimed?.id ?? -1));
    });

    it("retries a failed send at its next attempt time, or keeps it as failed when given up", async () => {
      const [a, b] = await store.enqueueOutbox([reply, { ...reply, payload: { text: "second" } }]);
      const ids = [a?.id ?? -1, b?.id ?? -1] as const;
      expect((await store.claimDueOutbox(10)).map((e) => e.id)).toEqual([...ids]);
      const retry = await store.markOutboxFailed(ids[0], {
        error: "429 Too Many Requests",
        retryAt: h.clock.now + 20_000,
      });
      expect(retry).toMatchObject({ status: "pending", lastError: "429 Too Many Requests", attempts: 1 });
      const dead = await store.markOutboxFailed(ids[1], { error: "chat not found" });
      expect(dead).toMatchObject({ status: "failed", lastError: "chat not found" });
      expect(await store.claimDueOutbox(10)).toEqual([]);
      h.clock.now += 20_000;
      const again = await store.claimDueOutbox(10);
      expect(again.map((e) => [e.id, e.attempts])).toEqual([[ids[0], 2]]);
      expect((await store.listOutbox({ status: "failed" })).map((e) => e.id)).toEqual([ids[1]]);
      expect((await rejection(store.markOutboxFailed(ids[1], { error: "x" }))).code).toBe("invalid-state");
    });

    it("reclaims an entry left in flight once its claim is older than the bound, and only when asked", async () => {
      // A sender whose write after the send was lost (a database blip) leaves the entry in-flight for good otherwise.
      const [stuck, fresh] = await store.enqueueOutbox([reply, { ...reply, payload: { text: "second" } }]);
      expect((await store.claimDueOutbox(1)).map((e) => e.id)).toEqual([stuck?.id]);
      h.clock.now += 30_000;
      expect((await store.claimDueOutbox(1)).map((e) => e.id)).toEqual([fresh?.id]);
      expect(await store.claimDueOutbox(10)).toEqual([]);
      expect(await store.claimDueOutbox(10, { reclaimInFlightAfterMs: 60_000 })).toEqual([]);
      h.clock.now += 30_000;
      const reclaimed = await store.claimDueOutbox(10, { reclaimInFlightAfterMs: 60_000 });
      expect(reclaimed.map((e) => [e.id, e.status, e.attempts])).toEqual([[stuck?.id, "in-flight", 2]]);
      expect(reclaimed[0]?.lastError).toMatch(/^outcome unknown/);
      // The reclaim is a claim of its own: the bound counts again from now, and the entry settles as usual.
      expect(await store.claimDueOutbox(10, { reclaimInFlightAfterMs: 60_000 })).toEqual([]);
      expect(await store.markOutboxSent(stuck?.id ?? -1, ["m-1"])).toMatchObject({ status: "sent" });
    });

    it("claims due entries oldest first, up to the limit", async () => {
      const entries = await store.enqueueOutbox([
        reply,
        { ...reply, payload: 2 },
        { ...reply, payload: 3, nextAttemptAt: h.clock.now + 60_000 },
      ]);
      const claimed = await store.claimDueOutbox(1);
      expect(claimed.map((e) => e.id)).toEqual([entries[0]?.id]);
      expect((await store.claimDueOutbox(5)).map((e) => e.payload)).toEqual([2]);
      expect((await store.listOutbox({ status: ["pending", "in-flight"] })).map((e) => e.status)).toEqual([
        "in-flight",
        "in-flight",
        "pending",
      ]);
    });

    it("requeues entries left in flight by a crash, keeping their attempt counts", async () => {
      const [a, b] = await store.enqueueOutbox([reply, { ...reply, sessionKey: "other" }]);
      await store.claimOutboxEntry(a?.id ?? -1);
      h.clock.now += 1000;
      const requeued = await store.requeueInFlightOutbox();
      expect(requeued.map((e) => [e.id, e.status, e.attempts, e.nextAttemptAt])).toEqual([
        [a?.id, "pending", 1, h.clock.now],
      ]);
      expect((await store.listOutbox({ sessionKey: "other" })).map((e) => e.id)).toEqual([b?.id]);
    });

    it("prunes only sent entries older than the cutoff", async () => {
      const [a, b] = await store.enqueueOutbox([reply, reply]);
      await store.claimOutboxEntry(a?.id ?? -1);
      await store.markOutboxSent(a?.id ?? -1, ["m"]);
      h.clock.now += 1000;
      expect(await store.pruneSentOutbox(h.clock.now)).toBe(1);
      expect((await store.listOutbox()).map((e) => e.id)).toEqual([b?.id]);
      const [c] = await store.enqueueOutbox([reply]);
      expect(c?.id).toBeGreaterThan(b?.id ?? Number.POSITIVE_INFINITY);
    });

    it("prunes sent entries in steps of at most `limit`, oldest first", async () => {
      const send = async (count: number) => {
        const entries = await store.enqueueOutbox(Array.from({ length: count }, () => reply));
        for (const entry of entries) {
          await store.claimOutboxEntry(entry.id);
          await store.markOutboxSent(entry.id, ["m"]);
        }
        return entries.map((entry) => entry.id);
      };
      const old = await send(3);
      const [waiting] = await store.enqueueOutbox([reply]);
      h.clock.now += 1000;
      const cutoff = h.clock.now;
      const young = await send(1);
      expect(await store.pruneSentOutbox(cutoff, 2)).toBe(2);
      expect((await store.listOutbox()).map((e) => e.id)).toEqual([old[2], waiting?.id, ...young]);
      expect(await store.pruneSentOutbox(cutoff, 2)).toBe(1);
      expect(await store.pruneSentOutbox(cutoff, 2)).toBe(0);
      expect((await store.listOutbox()).map((e) => e.id)).toEqual([waiting?.id, ...young]);
      expect((await rejection(store.pruneSentOutbox(cutoff, 1.5))).code).toBe("invalid-input");
    });

    it("refuses a payload that is not JSON", async () => {
      const error = await rejection(store.enqueueOutbox([{ ...reply, payload: { n: 1n } }]));
      expect(error.code).toBe("invalid-input");
      expect(await store.listOutbox()).toEqual([]);
    });
  });
}
