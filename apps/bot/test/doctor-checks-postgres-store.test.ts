import { createServer } from "node:net";
import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPostgresStore } from "../src/cli/doctor/check-postgres-store.js";

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("chorus doctor on a PostgreSQL store", () => {
  it("passes a reachable database and says the schema is created at start, without creating it", async () => {
    const check = await checkPostgresStore({ url: database.url });
    expect(check.ok).toBe(true);
    expect(check.detail).toMatch(
      new RegExp(
        `^PostgreSQL 127\\.0\\.0\\.1:5432/${database.name} \\(server \\d+.*\\) reachable, no Chorus schema yet`,
      ),
    );
    expect((await checkPostgresStore({ url: database.url })).detail).toContain("no Chorus schema yet");
  });

  it("passes a database a running Chorus holds, with its schema version", async () => {
    const store = await PostgresSessionStore.open({ url: database.url, schema: "running" });
    try {
      const check = await checkPostgresStore({ url: database.url, schema: "running" });
      expect(check).toMatchObject({ name: "store", ok: true });
      expect(check.detail).toContain("(schema running)");
      expect(check.detail).toContain(`schema version ${store.schemaVersion}; in use by a running Chorus`);
    } finally {
      await store.close();
    }
  });

  it("fails an unreachable server with host:port and the cause, and never shows the password", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const check = await checkPostgresStore({ url: `postgres://chorus:hunter2-secret@127.0.0.1:${port}/chorus` });
    expect(check.ok).toBe(false);
    expect(check.detail).toContain(`Cannot reach PostgreSQL at 127.0.0.1:${port}/chorus`);
    expect(check.detail).toContain("ECONNREFUSED");
    expect(check.detail).not.toContain("hunter2-secret");
  });
});
