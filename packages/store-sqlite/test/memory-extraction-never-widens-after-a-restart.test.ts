import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeMemoryMarksAcrossRestarts } from "@chorus/extension-memory/testing";
import { SqliteMemoryStore } from "@chorus/memory";
import { SqliteSessionStore } from "../src/index.js";

// A restart is the SQLite file reopened: a later extraction pass must not read more than the marks stored with each
// message allow.
let dir = "";

describeMemoryMarksAcrossRestarts("memory extraction across a restart of the SQLite store", {
  setUp: async () => {
    dir = mkdtempSync(join(tmpdir(), "chorus-memory-marks-"));
  },
  openStore: async () => SqliteSessionStore.open({ path: join(dir, "chorus.db") }),
  openMemory: () => new SqliteMemoryStore({ path: join(dir, "memory.db") }),
  tearDown: async () => rmSync(dir, { recursive: true, force: true }),
});
