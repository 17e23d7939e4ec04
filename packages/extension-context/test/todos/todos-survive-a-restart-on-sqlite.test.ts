import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { afterEach, beforeEach, describe } from "vitest";
import { todosAcrossRestarts } from "./describe-todos-across-restarts.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-todos-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the session todo list through the gateway on SQLite", () => {
  todosAcrossRestarts(async () => SqliteSessionStore.open({ path: join(dir, "chorus.db") }));
});
