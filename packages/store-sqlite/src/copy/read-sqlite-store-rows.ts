import { existsSync } from "node:fs";
import { SessionStoreError } from "@chorus/store";
import { openSqliteDatabase } from "../open-sqlite-database.js";
import { SQLITE_MIGRATIONS } from "../sqlite-migrations.js";
import { acquireStoreOwnerLock } from "../store-owner-lock.js";

/** The tables a store copy carries, in an order that satisfies their references (sessions before transcripts). */
export const STORE_COPY_TABLES = [
  "sessions",
  "transcript_messages",
  "runs",
  "outbox",
  "inbound_events",
  "pairing_requests",
  "paired_senders",
  "schedules",
  "spend_ledger",
] as const;

/** One of the tables a store copy carries. */
export type StoreCopyTable = (typeof STORE_COPY_TABLES)[number];

/** A row as stored: column name → value (text, integer or null). */
export type StoreCopyRow = Record<string, string | number | bigint | null>;

/** Every row of a store, table by table: what `chorus store copy` moves to another store. */
export type StoreCopyRows = Record<StoreCopyTable, StoreCopyRow[]>;

/** The rows of a SQLite store, read while its owner lock is held. */
export interface SqliteStoreRowsRead {
  readonly rows: StoreCopyRows;
  /** Releases the owner lock: until then no gateway can start on the file (and take messages the copy misses). */
  release(): void;
}

/**
 * Reads every row of the SQLite store at `path` for a copy into another store, holding its owner lock.
 * Contract: the file must exist (it is migrated to the current schema first, as `chorus start` would); throws
 * `SessionStoreError` — `not-found` when there is no file, `in-use` when a gateway holds it, or what opening throws.
 * @example
 * const read = readSqliteStoreRows("./data/chorus.db");
 * try { await target.importRows(read.rows); } finally { read.release(); }
 */
export function readSqliteStoreRows(path: string): SqliteStoreRowsRead {
  if (!existsSync(path)) {
    throw new SessionStoreError("not-found", `There is no SQLite store at ${path}; nothing to copy.`, { path });
  }
  const ownerLock = acquireStoreOwnerLock(path);
  try {
    const db = openSqliteDatabase(path, { busyTimeoutMs: 5000, autoCheckpoint: true }, SQLITE_MIGRATIONS);
    try {
      const rows = {} as StoreCopyRows;
      db.exec("BEGIN");
      for (const table of STORE_COPY_TABLES) {
        rows[table] = db.prepare(`SELECT * FROM ${table}`).all() as StoreCopyRow[];
      }
      db.exec("COMMIT");
      return { rows, release: () => ownerLock.release() };
    } finally {
      db.close();
    }
  } catch (error) {
    ownerLock.release();
    throw error;
  }
}
