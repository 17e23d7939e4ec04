import { type Harness, startHarness } from "@chorus/gateway-testing";
import { type PgPoolLike, PostgresMemoryStore } from "@chorus/memory";
import { startNetworkGate } from "@chorus/testkit";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { memoryExtension } from "../src/index.js";

// The memory database goes away (testkit's TCP gate in front of PostgreSQL) just as a recall's miss is written: the
// miss is lost and logged, the turn does not wait for it and is answered, and later misses are written again.
const gate = await startNetworkGate("postgres://127.0.0.1:5432");
const pool = new pg.Pool({
  connectionString: `postgres://postgres@127.0.0.1:${gate.port}/test`,
  max: 2,
  connectionTimeoutMillis: 1_000,
  query_timeout: 2_000,
});
pool.on("error", () => {}); // an idle connection the gate cuts
const schema = `memory_miss_cut_${process.pid}`;
afterAll(async () => {
  gate.open();
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
  await gate.close();
});

/** The pool, with the gate shut right before each miss write while `cutMissWrites` holds. */
let cutMissWrites = false;
const gatedPool: PgPoolLike = {
  query: (text, values) => {
    if (cutMissWrites && text.includes("INSERT INTO") && text.includes("memory_misses")) gate.shut();
    return pool.query(text, values);
  },
  connect: () => pool.connect(),
};

describe("a database cut during a recall miss's write", () => {
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.close();
  });

  it("loses only that miss, logged: the turn is answered, and later misses are written", async () => {
    const memory = await PostgresMemoryStore.open({ pool: gatedPool, schema });
    const warnings: string[] = [];
    const logger = {
      info: () => {},
      error: () => {},
      warn: (_: object, message?: string) => warnings.push(message ?? ""),
    };
    h = await startHarness({
      script: () => "ok",
      gateway: { logger, extensions: [memoryExtension({ store: memory, recall: { budgetMs: 5_000 } })] },
    });

    cutMissWrites = true;
    await h.send({ text: "Where did I park the car?" });
    expect(gate.isOpen).toBe(false);
    expect(h.channel.transcript("dm-user-1")).toEqual(["ok"]);
    expect(warnings).toContain("could not log a memory miss");

    cutMissWrites = false;
    gate.open();
    await h.send({ text: "Which platform does my train leave from?" });
    expect(h.channel.transcript("dm-user-1")).toEqual(["ok", "ok"]);
    const { misses, total } = await memory.misses("main");
    expect(total).toBe(1);
    expect(misses[0]?.query).toBe("Which platform does my train leave from?");
  }, 30_000);
});
