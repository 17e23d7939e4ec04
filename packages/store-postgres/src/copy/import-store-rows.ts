import { SessionStoreError } from "@chorus/store";
import type { Db } from "../query-runner.js";

/**
 * The tables an import fills, in an order that satisfies their references (sessions before transcripts). The same
 * list as store-sqlite's `STORE_COPY_TABLES`: the two stores sit side by side and may not import each other.
 */
export const IMPORT_TABLES = [
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

/** One of the tables an import fills. */
export type ImportTable = (typeof IMPORT_TABLES)[number];

/**
 * Every row of another store, table by table, with the same column names as this store's tables (the SQLite store's
 * `readSqliteStoreRows` gives exactly this). Columns this store has and the rows lack take their defaults.
 */
export type StoreRowsToImport = Readonly<Record<ImportTable, readonly Readonly<Record<string, unknown>>[]>>;

/** How many rows an import wrote, per table. */
export type ImportCounts = Record<ImportTable, number>;

const COLUMN_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** Rows per INSERT: one statement carries a batch as one JSON parameter. */
const BATCH = 1000;

/**
 * Writes `rows` into the store's empty tables on `db` (which must be a transaction: all or nothing).
 * Contract: refuses with `SessionStoreError` `invalid-state` when any of the tables already has a row, and
 * `invalid-input` for a column name that is not a plain SQL name; keeps outbox ids (and moves the id sequence past
 * them), seqs and times as they are.
 */
export async function importStoreRows(db: Db, rows: StoreRowsToImport): Promise<ImportCounts> {
  // The tables are locked first, so that nothing writes between the emptiness check and the copy.
  await db.query(`LOCK TABLE ${IMPORT_TABLES.join(", ")} IN EXCLUSIVE MODE NOWAIT`);
  const occupied = await db.query<{ name: string }>(
    IMPORT_TABLES.map((table) => `SELECT '${table}' AS name WHERE EXISTS (SELECT 1 FROM ${table})`).join(" UNION ALL "),
  );
  if (occupied.rows.length > 0) {
    throw new SessionStoreError(
      "invalid-state",
      `The target store already has data (${occupied.rows.map((row) => row.name).join(", ")}); a copy goes into an empty database or schema only. Nothing was written.`,
    );
  }
  const counts = {} as ImportCounts;
  for (const table of IMPORT_TABLES) {
    const tableRows = rows[table];
    counts[table] = tableRows.length;
    for (let start = 0; start < tableRows.length; start += BATCH) {
      await insertBatch(db, table, tableRows.slice(start, start + BATCH));
    }
  }
  if (counts.outbox > 0) {
    await db.query("SELECT setval(pg_get_serial_sequence('outbox', 'id'), (SELECT max(id) FROM outbox))");
  }
  return counts;
}

async function insertBatch(db: Db, table: ImportTable, batch: readonly Readonly<Record<string, unknown>>[]) {
  const first = batch[0];
  if (first === undefined) return;
  const columns = Object.keys(first);
  for (const column of columns) {
    if (!COLUMN_NAME.test(column)) {
      throw new SessionStoreError("invalid-input", `Cannot import column ${JSON.stringify(column)} of ${table}.`);
    }
  }
  const list = columns.join(", ");
  // json_populate_recordset casts each value to the column's type, so one statement carries the whole batch.
  await db.query(
    `INSERT INTO ${table} (${list}) ${table === "outbox" ? "OVERRIDING SYSTEM VALUE" : ""}
     SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json)`,
    [JSON.stringify(batch, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value))],
  );
}
