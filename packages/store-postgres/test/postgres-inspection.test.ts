import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectPostgresStore, POSTGRES_SCHEMA_VERSION, PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("inspecting a PostgreSQL store (chorus doctor)", () => {
  it("reports an empty database as reachable and not yet migrated, without migrating it", async () => {
    const found = await inspectPostgresStore({ url: database.url, schema: "fresh" });
    expect(found).toMatchObject({
      description: `127.0.0.1:5432/${database.name}`,
      schema: "fresh",
      schemaVersion: 0,
      codeVersion: POSTGRES_SCHEMA_VERSION,
      inUse: false,
    });
    expect(found.serverVersion).toMatch(/^\d+/);
    expect((await inspectPostgresStore({ url: database.url, schema: "fresh" })).schemaVersion).toBe(0);
  });

  it("sees the schema version and a running gateway's hold, and does not disturb it", async () => {
    // "bot_a" hashes to a negative int4: the lock's second key shows in pg_locks as an unsigned oid.
    const store = await PostgresSessionStore.open({ url: database.url, schema: "bot_a" });
    try {
      expect(await inspectPostgresStore({ url: database.url, schema: "bot_a" })).toMatchObject({
        schemaVersion: POSTGRES_SCHEMA_VERSION,
        inUse: true,
      });
      expect((await inspectPostgresStore({ url: database.url, schema: "other" })).inUse).toBe(false);
      expect(await store.listSessions()).toEqual([]);
    } finally {
      await store.close();
    }
    expect((await inspectPostgresStore({ url: database.url, schema: "bot_a" })).inUse).toBe(false);
  });
});
