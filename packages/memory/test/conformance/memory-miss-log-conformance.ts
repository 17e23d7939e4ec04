import { afterEach, describe, expect, it } from "vitest";
import { MEMORY_MISS_QUERY_CHARS, type MemoryStore, type NewMemoryMiss } from "../../src/index.js";

/** A fresh store whose miss log keeps `maxMisses` per agent, and how to drop it. */
export interface MissLogUnderTest {
  readonly store: MemoryStore;
  cleanup(): Promise<void>;
}

const miss = (n: number, agentId = "main"): NewMemoryMiss => ({
  query: `where did I park ${n}`,
  strategy: "fulltext",
  reason: "no_results",
  error: "no_results",
  sessionKey: `agent:${agentId}:test:dm:alice`,
  agentId,
  at: 1_000 + n,
});

/** One suite, every `MemoryStore`: the recall-miss log is bounded per agent, newest first, its texts cut. */
export function describeMemoryMissLogConformance(
  name: string,
  open: (options: { maxMisses: number }) => Promise<MissLogUnderTest>,
): void {
  describe(`${name} (memory-miss log)`, () => {
    let current: MissLogUnderTest | undefined;
    const fresh = async (maxMisses: number) => {
      current = await open({ maxMisses });
      return current.store;
    };
    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });

    it("keeps the seed's fields, newest first, with outcome memory_miss", async () => {
      const store = await fresh(10);
      await store.recordMiss(miss(1));
      await store.recordMiss({ ...miss(2), strategy: "hybrid", reason: "error", error: "index unreadable" });
      const page = await store.misses("main");
      expect(page.total).toBe(2);
      expect(page.misses).toEqual([
        {
          outcome: "memory_miss",
          query: "where did I park 2",
          strategy: "hybrid",
          reason: "error",
          error: "index unreadable",
          sessionKey: "agent:main:test:dm:alice",
          agentId: "main",
          at: 1_002,
        },
        expect.objectContaining({ outcome: "memory_miss", query: "where did I park 1", error: "no_results" }),
      ]);
    });

    it("keeps only the newest maxMisses of an agent, and another agent's log is its own", async () => {
      const store = await fresh(3);
      for (let n = 1; n <= 7; n++) await store.recordMiss(miss(n));
      await store.recordMiss(miss(1, "other"));
      const main = await store.misses("main", { limit: 50 });
      expect(main.total).toBe(3);
      expect(main.misses.map((m) => m.at)).toEqual([1_007, 1_006, 1_005]);
      expect((await store.misses("other")).misses.map((m) => m.agentId)).toEqual(["other"]);
    });

    it("cuts a long query and a long error to 512 characters before storing them", async () => {
      const store = await fresh(10);
      await store.recordMiss({ ...miss(1), query: "q".repeat(2_000), reason: "error", error: "e".repeat(3_000) });
      const [stored] = (await store.misses("main")).misses;
      expect(stored?.query).toBe("q".repeat(MEMORY_MISS_QUERY_CHARS));
      expect(stored?.error).toHaveLength(MEMORY_MISS_QUERY_CHARS);
    });

    it("answers a page of at most `limit` misses", async () => {
      const store = await fresh(10);
      for (let n = 1; n <= 5; n++) await store.recordMiss(miss(n));
      const page = await store.misses("main", { limit: 2 });
      expect(page.total).toBe(5);
      expect(page.misses.map((m) => m.at)).toEqual([1_005, 1_004]);
    });
  });
}
