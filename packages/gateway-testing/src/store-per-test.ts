import { afterEach, beforeEach } from "vitest";
import type { ClockedStore } from "./clocked-store.js";

/**
 * Registers, in the calling `describe`, one fresh store from `open` before each test (handed to `use`) and its cleanup
 * after it. Call it inside a sub-suite's own `describe`, never beside sibling sub-suites: there its hooks would open a
 * second store for each of their tests too.
 */
export function openStoreEachTest(open: () => ClockedStore, use: (opened: ClockedStore) => void): void {
  let opened: ClockedStore | undefined;
  beforeEach(() => {
    opened = open();
    use(opened);
  });
  afterEach(async () => {
    await opened?.cleanup();
    opened = undefined;
  });
}
