import { StoreReachability } from "@chorus/gateway";
import { describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { databaseBehindAGate } from "./fixtures/database-behind-a-gate.js";

const { gate, url } = await databaseBehindAGate();

describe("readiness of an instance whose database goes away", () => {
  it("is not ready while PostgreSQL cannot be reached, and ready again once it can", async () => {
    const store = await PostgresSessionStore.open({
      url: url(true),
      connectTimeoutMs: 500,
      queryTimeoutMs: 1000,
      onWarning: () => {},
    });
    const changes: boolean[] = [];
    const reachability = new StoreReachability(store, {
      everyMs: 100,
      timeoutMs: 700,
      onChange: (reachable) => changes.push(reachable),
    });
    reachability.start();
    try {
      expect(await reachability.probe()).toBe(true);
      gate.shut();
      await expect.poll(() => reachability.reachable, { timeout: 5_000 }).toBe(false);
      gate.open();
      await expect.poll(() => reachability.reachable, { timeout: 5_000 }).toBe(true);
      expect(changes).toEqual([false, true]);
    } finally {
      gate.open();
      reachability.stop();
      await store.close();
    }
  });
});
