import { afterEach, describe, expect, it } from "vitest";
import { MAX_USER_OBSERVATIONS, type MemoryStore, type StyleObservation } from "../../src/index.js";

const style: StyleObservation = { chars: 12, formality: "informal", language: "German", emoji: false, code: false };

/**
 * The per-user model's stored observations, the same in every `MemoryStore`: kept per user scope, newest first,
 * bounded per user, cleared per user — never touching another user's.
 */
export function describeUserObservationConformance(
  name: string,
  open: () => Promise<{ store: MemoryStore; cleanup: () => Promise<void> }>,
): void {
  describe(`${name}: users' style observations`, () => {
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it("keeps each user's observations apart, newest first, the newest MAX_USER_OBSERVATIONS only, and clears one user's", async () => {
      const opened = await open();
      cleanup = opened.cleanup;
      const { store } = opened;
      for (let i = 1; i <= MAX_USER_OBSERVATIONS + 2; i++) {
        await store.observeUser({ scope: "user:test:alice", style: { ...style, chars: i }, at: i });
      }
      await store.observeUser({ scope: "user:test:bob", style: { ...style, formality: "formal" }, at: 7 });

      const alice = await store.userObservations("user:test:alice", { limit: 3 });
      expect(alice.total).toBe(MAX_USER_OBSERVATIONS);
      expect(alice.observations.map((o) => o.style.chars)).toEqual([52, 51, 50]);
      expect(alice.observations[0]).toEqual({ scope: "user:test:alice", style: { ...style, chars: 52 }, at: 52 });

      expect(await store.clearUserObservations("user:test:alice")).toBe(MAX_USER_OBSERVATIONS);
      expect((await store.userObservations("user:test:alice")).total).toBe(0);
      const bob = await store.userObservations("user:test:bob");
      expect(bob.observations).toEqual([{ scope: "user:test:bob", style: { ...style, formality: "formal" }, at: 7 }]);
    });
  });
}
