import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { SKILL_DRAFTER_SETTING } from "../src/skill-drafts/skill-drafter-extension.js";
import { ADMIN, ADMIN_DM_KEY, startDrafterGateway, tempSkillsDir } from "./support/skill-drafter-gateway.js";

// The streaks are kept in the session's stored settings: two successes before a restart and one after still make
// three in a row.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("a signature's streak", () => {
  it("survives a restart of the gateway on the same SQLite store", async () => {
    const dir = await tempSkillsDir();
    const dbDir = await mkdtemp(join(tmpdir(), "chorus-skill-streaks-"));
    cleanups.push(dir.remove, () => rm(dbDir, { recursive: true, force: true }));
    const path = join(dbDir, "sessions.db");

    const first = SqliteSessionStore.open({ path });
    const h1 = await startDrafterGateway({ skillsDir: dir.skillsDir, store: first });
    await h1.send({ text: "Rotate the production database credentials", sender: ADMIN });
    await h1.send({ text: "rotate production database credentials, please", sender: ADMIN });
    await h1.close();
    expect((await first.getSession(ADMIN_DM_KEY))?.settings[SKILL_DRAFTER_SETTING]).toEqual({
      streaks: { "credentials-database-production": 2 },
    });
    await first.close();

    const second = SqliteSessionStore.open({ path });
    cleanups.push(() => second.close());
    const h2 = await startDrafterGateway({ skillsDir: dir.skillsDir, store: second });
    cleanups.push(() => h2.close());
    // A fresh channel numbers its messages from 1 again: a new id, or the store takes it for a redelivery.
    await h2.send({ text: "production database credentials: rotate them", sender: ADMIN, messageId: "after-restart" });
    expect(await readdir(join(dir.skillsDir, ".pending"))).toEqual(["credentials-database-production"]);
  });
});
