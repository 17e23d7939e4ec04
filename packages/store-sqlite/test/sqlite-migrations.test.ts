import { DatabaseSync } from "node:sqlite";
import { SessionStoreError } from "@chorus/gateway";
import { afterEach, beforeEach, expect, it } from "vitest";
import { applyMigrations } from "../src/apply-migrations.js";
import { SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, type SqliteMigration } from "../src/sqlite-migrations.js";

const steps: SqliteMigration[] = [
  { version: 1, description: "notes", sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);" },
  { version: 2, description: "note tags", sql: "ALTER TABLE notes ADD COLUMN tag TEXT;" },
  { version: 3, description: "authors", sql: "CREATE TABLE authors (id INTEGER PRIMARY KEY);" },
];

let db: DatabaseSync;

beforeEach(() => {
  db = new DatabaseSync(":memory:");
});

afterEach(() => {
  db.close();
});

function userVersion(): number {
  return Number(db.prepare("PRAGMA user_version").get()?.user_version);
}

function tables(): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => String(row.name));
}

it("applies every step to a fresh database, in order, and records the version", () => {
  expect(applyMigrations(db, steps, ":memory:")).toBe(3);
  expect(userVersion()).toBe(3);
  expect(tables()).toEqual(["authors", "notes"]);
  db.exec("INSERT INTO notes (body, tag) VALUES ('x', 'y')");
});

it("applies only the steps a database has not had, and nothing on a second start", () => {
  applyMigrations(db, steps.slice(0, 1), ":memory:");
  db.exec("INSERT INTO notes (body) VALUES ('kept')");
  expect(applyMigrations(db, steps, ":memory:")).toBe(3);
  expect(applyMigrations(db, steps, ":memory:")).toBe(3);
  expect(db.prepare("SELECT body, tag FROM notes").all()).toEqual([{ body: "kept", tag: null }]);
});

it("rolls back all of a start's steps when one fails", () => {
  applyMigrations(db, steps.slice(0, 1), ":memory:");
  const broken: SqliteMigration[] = [...steps.slice(0, 2), { version: 3, description: "bad", sql: "CREATE TABLE (" }];
  expect(() => applyMigrations(db, broken, ":memory:")).toThrow();
  expect(userVersion()).toBe(1);
  expect(db.prepare("SELECT name FROM pragma_table_info('notes') WHERE name = 'tag'").get()).toBeUndefined();
});

it("refuses a database newer than the code without touching it", () => {
  applyMigrations(db, steps, ":memory:");
  const error = (() => {
    try {
      applyMigrations(db, steps.slice(0, 2), "/var/chorus.db");
    } catch (caught) {
      return caught;
    }
    return undefined;
  })();
  expect(error).toBeInstanceOf(SessionStoreError);
  expect(error).toMatchObject({ code: "schema-too-new", fileVersion: 3, codeVersion: 2, path: "/var/chorus.db" });
  expect(userVersion()).toBe(3);
});

it("numbers the real schema's steps 1, 2, 3… and brings a fresh file to the newest", () => {
  expect(SQLITE_MIGRATIONS.map((m) => m.version)).toEqual(SQLITE_MIGRATIONS.map((_, i) => i + 1));
  expect(applyMigrations(db, SQLITE_MIGRATIONS, ":memory:")).toBe(SQLITE_SCHEMA_VERSION);
  expect(tables()).toEqual(
    expect.arrayContaining([
      "sessions",
      "transcript_messages",
      "runs",
      "inbound_events",
      "outbox",
      "pairing_requests",
      "paired_senders",
    ]),
  );
});
