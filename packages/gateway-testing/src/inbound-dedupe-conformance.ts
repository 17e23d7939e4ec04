import type { SessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";
import { HOUR } from "./conformance-fixtures.js";
import { openStoreEachTest } from "./store-per-test.js";
import { rejection } from "./store-rejection.js";

/** Part of the conformance suite: inbound event ids count as new once per TTL, then are forgotten and pruned. */
export function describeInboundDedupe(open: () => ClockedStore): void {
  describe("inbound event dedupe", () => {
    let h: ClockedStore;
    let store: SessionStore;
    openStoreEachTest(open, (opened) => {
      h = opened;
      store = opened.store;
    });

    it("reports an event id as new once within the TTL, per channel and account", async () => {
      const ref = { channel: "discord", accountId: "bot", eventId: "m-1" };
      expect(await store.recordInboundEvent(ref)).toBe(true);
      expect(await store.recordInboundEvent(ref)).toBe(false);
      expect(await store.recordInboundEvent({ ...ref, accountId: "other-bot" })).toBe(true);
      expect(await store.recordInboundEvent({ ...ref, channel: "slack" })).toBe(true);
      h.clock.now += 23 * HOUR;
      expect(await store.recordInboundEvent(ref)).toBe(false);
    });

    it("forgets ids after 24 hours and prunes them", async () => {
      const old = { channel: "telegram", accountId: "bot", eventId: "u-1" };
      await store.recordInboundEvent(old);
      h.clock.now += 12 * HOUR;
      await store.recordInboundEvent({ ...old, eventId: "u-2" });
      h.clock.now += 12 * HOUR;
      expect(await store.pruneInboundEvents()).toBe(1);
      expect(await store.recordInboundEvent({ ...old, eventId: "u-2" })).toBe(false);
      expect(await store.recordInboundEvent(old)).toBe(true);
    });

    it("prunes in steps of at most `limit`, by when each id was last seen", async () => {
      const ref = (eventId: string) => ({ channel: "telegram", accountId: "bot", eventId });
      await store.recordInboundEvent(ref("a"));
      await store.recordInboundEvent(ref("b"));
      await store.recordInboundEvent(ref("c"));
      h.clock.now += 20 * HOUR;
      await store.recordInboundEvent(ref("d"));
      h.clock.now += 5 * HOUR;
      // "a" comes again after its TTL: it counts from now, and only "b" and "c" are left to prune.
      expect(await store.recordInboundEvent(ref("a"))).toBe(true);
      expect(await store.pruneInboundEvents(1)).toBe(1);
      expect(await store.pruneInboundEvents(5)).toBe(1);
      expect(await store.pruneInboundEvents(5)).toBe(0);
      expect(await store.recordInboundEvent(ref("a"))).toBe(false);
      expect(await store.recordInboundEvent(ref("d"))).toBe(false);
      expect((await rejection(store.pruneInboundEvents(0))).code).toBe("invalid-input");
    });
  });
}
