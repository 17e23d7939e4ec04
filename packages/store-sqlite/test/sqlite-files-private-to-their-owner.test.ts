import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/sqlite-session-store.js";

// An SDK program opening the store gets owner-only files whatever its umask (the test runner's is typically 022):
// transcripts are never readable by other users of the machine.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-sqlite-private-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function modes(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder).map((name) => [name, (statSync(join(folder, name)).mode & 0o777).toString(8)]),
  );
}

describe("SQLite store files", () => {
  it("a new store's file (migrated on open), its -wal, -shm and lock file are 0600, and a new folder for it 0700", async () => {
    const folder = join(dir, "new-folder");
    const store = SqliteSessionStore.open({ path: join(folder, "chorus.db") });
    try {
      expect(modes(folder)).toEqual({
        "chorus.db": "600",
        "chorus.db-wal": "600",
        "chorus.db-shm": "600",
        "chorus.db.lock": "600",
      });
      expect((statSync(folder).mode & 0o777).toString(8)).toBe("700");
    } finally {
      await store.close();
    }
  });

  it("an existing store left 0644 by an earlier version is tightened when opened", async () => {
    const path = join(dir, "chorus.db");
    const old = new DatabaseSync(path);
    old.exec("CREATE TABLE leftover (x)");
    old.close();
    chmodSync(path, 0o644);
    const store = SqliteSessionStore.open({ path });
    try {
      expect(modes(dir)).toMatchObject({ "chorus.db": "600", "chorus.db-wal": "600", "chorus.db-shm": "600" });
    } finally {
      await store.close();
    }
  });
});
