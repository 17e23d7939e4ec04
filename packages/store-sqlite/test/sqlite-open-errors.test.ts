import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SessionStoreError } from "@chorus/gateway";
import { afterEach, beforeEach, expect, it } from "vitest";
import { SQLITE_SCHEMA_VERSION, SqliteSessionStore } from "../src/index.js";

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-open-errors-"));
  path = join(dir, "chorus.db");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function openError(options: Parameters<typeof SqliteSessionStore.open>[0]): SessionStoreError {
  let opened: SqliteSessionStore;
  try {
    opened = SqliteSessionStore.open(options);
  } catch (error) {
    if (error instanceof SessionStoreError) return error;
    throw error;
  }
  void opened.close();
  throw new Error("expected open to fail");
}

it("refuses a database with a newer schema, naming both versions, and leaves it untouched", () => {
  const raw = new DatabaseSync(path);
  raw.exec("CREATE TABLE future_things (id INTEGER); PRAGMA user_version = 999;");
  raw.close();
  const error = openError({ path });
  expect(error.code).toBe("schema-too-new");
  expect(error.fileVersion).toBe(999);
  expect(error.codeVersion).toBe(SQLITE_SCHEMA_VERSION);
  expect(error.message).toContain("schema version 999");
  expect(error.message).toContain(`up to version ${SQLITE_SCHEMA_VERSION}`);
  const after = new DatabaseSync(path);
  try {
    expect(after.prepare("PRAGMA user_version").get()).toEqual({ user_version: 999 });
    expect(after.prepare("SELECT name FROM sqlite_master WHERE name = 'sessions'").get()).toBeUndefined();
  } finally {
    after.close();
  }
});

it("reports a file that is not a database as corrupt, and leaves it untouched", () => {
  const garbage = "these bytes were never a SQLite database\n".repeat(200);
  writeFileSync(path, garbage);
  const error = openError({ path });
  expect(error.code).toBe("corrupt");
  expect(error.path).toBe(path);
  expect(error.message).toContain(path);
  expect(error.message).toMatch(/backup|move it aside/);
  expect(readFileSync(path, "utf8")).toBe(garbage);
});

it("reports a database whose write lock another process holds as locked", async () => {
  await SqliteSessionStore.open({ path }).close();
  const holder = new DatabaseSync(path);
  holder.exec("BEGIN EXCLUSIVE");
  try {
    const error = openError({ path, busyTimeoutMs: 50 });
    expect(error.code).toBe("locked");
    expect(error.message).toContain("locked by another process");
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  // Once the lock is gone the same file opens normally.
  await SqliteSessionStore.open({ path }).close();
});

it("turns a lock taken after opening into a typed rejection, not a crash", async () => {
  const store = SqliteSessionStore.open({ path, busyTimeoutMs: 50 });
  const holder = new DatabaseSync(path);
  holder.exec("BEGIN IMMEDIATE");
  try {
    const attempt = store.ensureSession({ key: "k", agentId: "main", channel: "c", accountId: "a", chatId: "1" });
    await expect(attempt).rejects.toMatchObject({ name: "SessionStoreError", code: "locked" });
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
    await store.close();
  }
});

it("reports a path that cannot be created as an io error", () => {
  const blocker = join(dir, "not-a-folder");
  writeFileSync(blocker, "a file where a folder should be");
  const error = openError({ path: join(blocker, "chorus.db") });
  expect(error.code).toBe("io");
  expect(error.message).toContain(join(blocker, "chorus.db"));
});
