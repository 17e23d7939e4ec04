import { MemorySessionStore, type SessionStore } from "@chorus/store";

/** A store under test with a clock the test moves by hand. */
export interface ClockedStore {
  store: SessionStore;
  /** The store's clock (epoch ms): give the store `now: () => clock.now`. */
  clock: { now: number };
  /** Closes the store and removes whatever it left behind (files, schemas). */
  cleanup: () => Promise<void>;
}

/** The epoch ms every clocked store starts at. */
export const CLOCK_START = 1_700_000_000_000;

/**
 * A fresh `MemorySessionStore` on a hand-moved clock.
 * Contract: a new store and clock each call, starting at `CLOCK_START`.
 * @example describeSessionStoreConformance("MemorySessionStore", clockedMemoryStore);
 */
export function clockedMemoryStore(): ClockedStore {
  const clock = { now: CLOCK_START };
  const store = new MemorySessionStore({ now: () => clock.now });
  return { store, clock, cleanup: () => store.close() };
}
