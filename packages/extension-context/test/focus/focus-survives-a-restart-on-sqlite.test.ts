import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { afterEach, beforeEach, describe } from "vitest";
import { focusAcrossRestarts } from "./describe-focus-across-restarts.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-focus-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the Focus strategy through the gateway on SQLite", () => {
  focusAcrossRestarts(async () => SqliteSessionStore.open({ path: join(dir, "chorus.db") }));
});
