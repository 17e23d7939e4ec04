import { SqliteMemoryStore } from "../src/index.js";
import { describeMemoryMissLogConformance } from "./conformance/memory-miss-log-conformance.js";
import { describeMemoryStoreConformance } from "./conformance/memory-store-conformance.js";

describeMemoryStoreConformance("SqliteMemoryStore", async () => {
  const clock = { now: 1_000 };
  const store = new SqliteMemoryStore({ path: ":memory:", now: () => clock.now });
  return {
    store,
    clock,
    indexMatches: async (word) => {
      const row = store.database
        .prepare("SELECT count(*) AS n FROM memory_facts_fts WHERE memory_facts_fts MATCH ?")
        .get(`"${word}"`) as { n: number };
      return row.n;
    },
    cleanup: () => store.close(),
  };
});

describeMemoryMissLogConformance("SqliteMemoryStore", async ({ maxMisses }) => {
  const store = new SqliteMemoryStore({ path: ":memory:", maxMisses });
  return { store, cleanup: () => store.close() };
});
