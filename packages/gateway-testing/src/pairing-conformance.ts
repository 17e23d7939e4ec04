import { PairingService } from "@chorus/gateway";
import type { SessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";
import { HOUR } from "./conformance-fixtures.js";
import { openStoreEachTest } from "./store-per-test.js";

/** Part of the conformance suite: pairing requests, approved senders, and the `PairingService` on them. */
export function describePairing(open: () => ClockedStore): void {
  describe("pairing", () => {
    let h: ClockedStore;
    let store: SessionStore;
    openStoreEachTest(open, (opened) => {
      h = opened;
      store = opened.store;
    });

    const scope = { channel: "telegram", accountId: "bot" };
    const request = (code: string, senderId: string, createdAt = h.clock.now) => ({
      scope,
      code,
      senderId,
      senderName: `Sender ${senderId}`,
      createdAt,
      expiresAt: createdAt + HOUR,
    });
    const limits = () => ({ maxPending: 2, now: h.clock.now });

    it("inserts a request once per sender, refuses a taken code and a full scope", async () => {
      const first = request("AAAA2222", "u1");
      expect(await store.insertPending(first, limits())).toEqual({ status: "inserted" });
      expect(await store.insertPending(request("BBBB3333", "u1"), limits())).toEqual({
        status: "exists",
        request: first,
      });
      expect(await store.insertPending(request("AAAA2222", "u2"), limits())).toEqual({ status: "code-taken" });
      expect(await store.insertPending(request("CCCC4444", "u2"), limits())).toEqual({ status: "inserted" });
      expect(await store.insertPending(request("DDDD5555", "u3"), limits())).toEqual({ status: "full" });
      const otherAccount = { ...request("DDDD5555", "u3"), scope: { ...scope, accountId: "second-bot" } };
      expect(await store.insertPending(otherAccount, limits())).toEqual({ status: "inserted" });
    });

    it("stops counting expired requests, lists live ones oldest first and finds any by code", async () => {
      await store.insertPending(request("AAAA2222", "u1"), limits());
      h.clock.now += 10 * 60_000;
      await store.insertPending(request("BBBB3333", "u2"), limits());
      h.clock.now += 55 * 60_000;
      // u1's code expired: it no longer counts towards the limit and u1 may ask again.
      expect((await store.listPending(scope, h.clock.now)).map((r) => r.code)).toEqual(["BBBB3333"]);
      expect(await store.insertPending(request("CCCC4444", "u3"), limits())).toEqual({ status: "inserted" });
      expect((await store.listPending(scope, h.clock.now)).map((r) => r.code)).toEqual(["BBBB3333", "CCCC4444"]);
      expect((await store.getPending(scope, "BBBB3333"))?.senderId).toBe("u2");
      await store.deletePending(scope, "BBBB3333");
      expect(await store.getPending(scope, "BBBB3333")).toBeUndefined();
      expect(await store.getPending({ ...scope, channel: "discord" }, "CCCC4444")).toBeUndefined();
    });

    it("keeps approved senders per channel account until removed", async () => {
      expect(await store.isApproved(scope, "u1")).toBe(false);
      await store.addApproved(scope, "u1", h.clock.now);
      expect(await store.isApproved(scope, "u1")).toBe(true);
      expect(await store.isApproved({ ...scope, accountId: "second-bot" }, "u1")).toBe(false);
      expect(await store.removeApproved(scope, "u1")).toBe(true);
      expect(await store.removeApproved(scope, "u1")).toBe(false);
      expect(await store.isApproved(scope, "u1")).toBe(false);
    });

    it("backs the PairingService: a code is issued, approved as typed, and the sender let in", async () => {
      const service = new PairingService(store, { now: () => h.clock.now, generateCode: () => "K7QX2M9D" });
      const issued = await service.request(scope, { id: "u1", name: "Ann" });
      expect(issued).toEqual({ status: "created", code: "K7QX2M9D", expiresAt: h.clock.now + HOUR });
      expect(await service.request(scope, { id: "u1", name: "Ann" })).toMatchObject({ status: "pending" });
      expect(await service.approve(scope, "k7qx-2m9d")).toMatchObject({ ok: true, request: { senderId: "u1" } });
      expect(await store.isApproved(scope, "u1")).toBe(true);
      expect(await service.request(scope, { id: "u1", name: "Ann" })).toEqual({ status: "already-approved" });
      expect(await store.listPending(scope, h.clock.now)).toEqual([]);
    });
  });
}
