import pg from "pg";
import { afterAll } from "vitest";
import { PostgresMemoryStore, SqliteMemoryStore } from "../src/index.js";
import { describeUserObservationConformance } from "./conformance/user-observation-conformance.js";

describeUserObservationConformance("SqliteMemoryStore", async () => {
  const store = new SqliteMemoryStore({ path: ":memory:" });
  return { store, cleanup: () => store.close() };
});

// Stored durably: the one PostgreSQL run of the same behaviour.
const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:5432/test", max: 2 });
afterAll(() => pool.end());

describeUserObservationConformance("PostgresMemoryStore", async () => {
  const schema = `memory_observations_${process.pid}`;
  const store = await PostgresMemoryStore.open({ pool, schema });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
});
