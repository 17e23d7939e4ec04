import { describeMemoryMarksAcrossRestarts } from "@chorus/extension-memory/testing";
import { SqliteMemoryStore } from "@chorus/memory";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

// A restart is the store reopened on the same PostgreSQL database, as a new owner after a takeover would open it: a
// later extraction pass must not read more than the marks stored with each message allow.
let database: ScratchDatabase | undefined;

describeMemoryMarksAcrossRestarts("memory extraction across a restart on PostgreSQL", {
  setUp: async () => {
    database = await createScratchDatabase();
  },
  openStore: async () => {
    if (database === undefined) throw new Error("no scratch database");
    return PostgresSessionStore.open({ url: database.url });
  },
  openMemory: () => new SqliteMemoryStore({ path: ":memory:" }),
  tearDown: async () => {
    await database?.drop();
    database = undefined;
  },
});
