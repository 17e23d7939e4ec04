import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PostgresMemoryStore, SqliteMemoryStore } from "../src/index.js";

const SCOPE = "user:test:alice";
const source = { sessionKey: "main:main:test:dm:alice", messageId: "m1", at: 1 };

describe("a fact written inside the caller's own transaction", () => {
  it("SQLite: commits and rolls back with the caller's other writes on a shared database", async () => {
    const database = new DatabaseSync(":memory:");
    database.exec("CREATE TABLE turns (id TEXT PRIMARY KEY)");
    const memory = new SqliteMemoryStore({ database });
    try {
      database.exec("BEGIN");
      database.prepare("INSERT INTO turns (id) VALUES (?)").run("t1");
      memory.rememberSync({ scope: SCOPE, text: "Alice is left-handed", source });
      database.exec("ROLLBACK");
      expect((await memory.list(SCOPE)).total).toBe(0);
      expect(await memory.search([SCOPE], "left-handed")).toEqual([]);

      database.exec("BEGIN");
      database.prepare("INSERT INTO turns (id) VALUES (?)").run("t2");
      memory.rememberSync({ scope: SCOPE, text: "Alice is right-handed", source });
      database.exec("COMMIT");
      expect((await memory.search([SCOPE], "handed")).map((hit) => hit.fact.text)).toEqual(["Alice is right-handed"]);
    } finally {
      await memory.close();
      database.close();
    }
  });

  it("Postgres: commits and rolls back with the caller's transaction on its client", async () => {
    const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:5432/test", max: 2 });
    const schema = `memory_caller_tx_${process.pid}`;
    try {
      const memory = await PostgresMemoryStore.open({ pool, schema });
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await memory.rememberOn(client, { scope: SCOPE, text: "Alice is left-handed", source });
        await client.query("ROLLBACK");
        await client.query("BEGIN");
        await memory.rememberOn(client, { scope: SCOPE, text: "Alice is right-handed", source });
        await client.query("COMMIT");
      } finally {
        client.release();
      }
      expect((await memory.export(SCOPE)).facts.map((fact) => fact.text)).toEqual(["Alice is right-handed"]);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
    }
  });
});
