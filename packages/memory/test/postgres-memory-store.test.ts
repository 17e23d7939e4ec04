import pg from "pg";
import { afterAll } from "vitest";
import { PostgresMemoryStore } from "../src/index.js";
import { describeMemoryMissLogConformance } from "./conformance/memory-miss-log-conformance.js";
import { describeMemoryStoreConformance } from "./conformance/memory-store-conformance.js";

const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:5432/test", max: 4 });
afterAll(() => pool.end());
let schemas = 0;

describeMemoryStoreConformance("PostgresMemoryStore", async () => {
  const clock = { now: 1_000 };
  const schema = `memory_conformance_${process.pid}_${++schemas}`;
  const store = await PostgresMemoryStore.open({ pool, schema, now: () => clock.now });
  return {
    store,
    clock,
    indexMatches: async (word) => {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM ${schema}.memory_facts WHERE tsv @@ to_tsquery('english', $1)`,
        [`'${word}'`],
      );
      return rows[0].n as number;
    },
    cleanup: async () => {
      await store.close();
      await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
});

describeMemoryMissLogConformance("PostgresMemoryStore", async ({ maxMisses }) => {
  const schema = `memory_misses_${process.pid}_${++schemas}`;
  const store = await PostgresMemoryStore.open({ pool, schema, maxMisses });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
});
