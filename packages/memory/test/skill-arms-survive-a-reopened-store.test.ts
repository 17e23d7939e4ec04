import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresMemoryStore, SqliteMemoryStore } from "../src/index.js";

const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:5432/test", max: 4 });
afterAll(() => pool.end());

describe("the skill router's arms, stored durably", () => {
  it("SQLite: credits are kept per agent and skill and read back after the store is reopened", async () => {
    const dir = await mkdtemp(join(tmpdir(), "chorus-skill-arms-"));
    const path = join(dir, "memory.db");
    try {
      const first = new SqliteMemoryStore({ path });
      await first.creditSkillArm("main", "deploy", "success");
      await first.creditSkillArm("main", "deploy", "success");
      await first.creditSkillArm("main", "triage", "failure");
      await first.creditSkillArm("other", "deploy", "failure");
      await first.close();

      const reopened = new SqliteMemoryStore({ path });
      expect(await reopened.skillArms("main")).toEqual([
        { skill: "deploy", alpha: 3, beta: 1 },
        { skill: "triage", alpha: 1, beta: 2 },
      ]);
      expect(await reopened.skillArms("other")).toEqual([{ skill: "deploy", alpha: 1, beta: 2 }]);
      expect(await reopened.skillArms("nobody")).toEqual([]);
      await expect(reopened.creditSkillArm("main", "deploy", "maybe" as "success")).rejects.toThrow(TypeError);
      await reopened.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("PostgreSQL: concurrent credits from two stores on one database lose nothing and survive a reopen", async () => {
    const schema = `skill_arms_${process.pid}`;
    try {
      const [one, two] = await Promise.all([
        PostgresMemoryStore.open({ pool, schema }),
        PostgresMemoryStore.open({ pool, schema }),
      ]);
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? one : two).creditSkillArm("main", "deploy", i < 7 ? "success" : "failure"),
        ),
      );
      await Promise.all([one.close(), two.close()]);

      const reopened = await PostgresMemoryStore.open({ pool, schema });
      expect(await reopened.skillArms("main")).toEqual([{ skill: "deploy", alpha: 8, beta: 4 }]);
      await reopened.close();
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });
});
