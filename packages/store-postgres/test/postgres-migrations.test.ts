import { isSessionStoreError } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_SCHEMA_VERSION, PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "../src/testing/index.js";

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

const session = {
  key: "main:bot:telegram:dm:42",
  agentId: "main",
  channel: "telegram",
  accountId: "bot",
  chatId: "42",
};

async function appliedSteps(schema: string): Promise<{ name: string; times: number }[]> {
  const { rows } = await queryOnce(
    database.url,
    `SELECT name, count(*)::int AS times FROM ${schema}.chorus_migrations GROUP BY name ORDER BY name`,
  );
  return rows as { name: string; times: number }[];
}

describe("PostgreSQL schema migrations", () => {
  it("migrates an empty database once when two stores open it at the same time", async () => {
    const schema = "started_together";
    const [first, second] = await Promise.all([
      PostgresSessionStore.open({ url: database.url, schema, exclusive: false }),
      PostgresSessionStore.open({ url: database.url, schema, exclusive: false }),
    ]);
    try {
      expect(await appliedSteps(schema)).toEqual([
        { name: "0001_initial-schema", times: 1 },
        { name: "0002_shard-leases", times: 1 },
        { name: "0003_schedules", times: 1 },
        { name: "0005_fleet-across-instances", times: 1 },
        { name: "0006_ingress-leases", times: 1 },
        { name: "0007_cluster-values", times: 1 },
        { name: "0008_spend-ledger", times: 1 },
        { name: "0009_run-spawn-settings", times: 1 },
        { name: "0010_trace-links", times: 1 },
        { name: "0011_spend-per-kind-of-call", times: 1 },
        { name: "0012_memory-marks", times: 1 },
      ]);
      expect([first.schemaVersion, second.schemaVersion]).toEqual([POSTGRES_SCHEMA_VERSION, POSTGRES_SCHEMA_VERSION]);
      await first.ensureSession(session);
      expect((await second.getSession(session.key))?.key).toBe(session.key);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("keeps what was written across a reopen, without migrating again", async () => {
    const schema = "reopened";
    const first = await PostgresSessionStore.open({ url: database.url, schema });
    await first.ensureSession(session);
    await first.appendMessages(session.key, [{ role: "user", content: "hi", timestamp: 1 }]);
    await first.close();
    const second = await PostgresSessionStore.open({ url: database.url, schema });
    try {
      expect((await second.readTranscript(session.key)).map((entry) => entry.seq)).toEqual([1]);
      expect(await appliedSteps(schema)).toEqual([
        { name: "0001_initial-schema", times: 1 },
        { name: "0002_shard-leases", times: 1 },
        { name: "0003_schedules", times: 1 },
        { name: "0005_fleet-across-instances", times: 1 },
        { name: "0006_ingress-leases", times: 1 },
        { name: "0007_cluster-values", times: 1 },
        { name: "0008_spend-ledger", times: 1 },
        { name: "0009_run-spawn-settings", times: 1 },
        { name: "0010_trace-links", times: 1 },
        { name: "0011_spend-per-kind-of-call", times: 1 },
        { name: "0012_memory-marks", times: 1 },
      ]);
    } finally {
      await second.close();
    }
  });

  it("refuses a database migrated by a newer Chorus, naming the version found and wanted, and changes nothing", async () => {
    const schema = "from_the_future";
    await (await PostgresSessionStore.open({ url: database.url, schema })).close();
    await queryOnce(
      database.url,
      `INSERT INTO ${schema}.chorus_migrations (name, run_on) VALUES ('0042_from-a-newer-chorus', now())`,
    );
    const refused = await PostgresSessionStore.open({ url: database.url, schema }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isSessionStoreError(refused, "schema-too-new")).toBe(true);
    expect(refused).toMatchObject({ fileVersion: 42, codeVersion: POSTGRES_SCHEMA_VERSION });
    expect((refused as Error).message).toContain(`schema version 42`);
    expect((refused as Error).message).toContain(`up to version ${POSTGRES_SCHEMA_VERSION}`);
    expect((await appliedSteps(schema)).map((step) => step.name)).toEqual([
      "0001_initial-schema",
      "0002_shard-leases",
      "0003_schedules",
      "0005_fleet-across-instances",
      "0006_ingress-leases",
      "0007_cluster-values",
      "0008_spend-ledger",
      "0009_run-spawn-settings",
      "0010_trace-links",
      "0011_spend-per-kind-of-call",
      "0012_memory-marks",
      "0042_from-a-newer-chorus",
    ]);
    // The refused open let go of the database: once the newer step is gone, this version opens it again.
    await queryOnce(database.url, `DELETE FROM ${schema}.chorus_migrations WHERE name LIKE '0042%'`);
    await (await PostgresSessionStore.open({ url: database.url, schema })).close();
  });
});
