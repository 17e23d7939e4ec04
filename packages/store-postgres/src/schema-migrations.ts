import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SessionStoreError } from "@chorus/store";
import type { ClientBase } from "pg";
import type { PostgresTarget } from "./postgres-target.js";

/** The versioned schema steps, `NNNN_what.sql`, shipped with the package (beside `src/` and `dist/`). */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../migrations", import.meta.url));

/** The table where node-pg-migrate records the steps applied (in the store's schema). */
export const MIGRATIONS_TABLE = "chorus_migrations";

/**
 * The key (bigint space) of the advisory lock every migration takes: Chorus instances that start together wait their
 * turn instead of failing, and the second finds the schema already there. ("chorus" in ASCII: six bytes, exact in a JavaScript number.)
 */
export const MIGRATION_LOCK_KEY = 0x63686f727573;

/** The version of a step: the number its file name starts with. */
function versionOf(name: string): number {
  return Number(/^(\d+)/.exec(name)?.[1] ?? Number.NaN);
}

/** The newest schema version this code writes: the highest-numbered file in `migrations/`. */
export const POSTGRES_SCHEMA_VERSION: number = Math.max(
  0,
  ...readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith(".sql"))
    .map(versionOf)
    .filter(Number.isFinite),
);

/** Quotes a schema name as an SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The schema version of the database (`schema`): the highest step recorded in its migrations table.
 * Contract: `0` for a database Chorus never migrated.
 */
export async function readSchemaVersion(client: ClientBase, schema: string): Promise<number> {
  const table = `${quoteIdentifier(schema)}.${quoteIdentifier(MIGRATIONS_TABLE)}`;
  const exists = await client.query("SELECT to_regclass($1) IS NOT NULL AS found", [table]);
  if (exists.rows[0]?.found !== true) return 0;
  const { rows } = await client.query(`SELECT name FROM ${table}`);
  return Math.max(0, ...rows.map((row) => versionOf(String(row.name))).filter(Number.isFinite));
}

/** Refuses a database migrated by a newer Chorus. Contract: throws `schema-too-new` naming both versions. */
export function refuseNewerSchema(found: number, target: PostgresTarget, schema: string): void {
  if (found <= POSTGRES_SCHEMA_VERSION) return;
  throw new SessionStoreError(
    "schema-too-new",
    `The PostgreSQL session store at ${target.description} (schema ${schema}) has schema version ${found}, but this ` +
      `version of Chorus only knows up to version ${POSTGRES_SCHEMA_VERSION}. Upgrade Chorus, or point it at another ` +
      "database; the database was not changed.",
    { path: target.description, fileVersion: found, codeVersion: POSTGRES_SCHEMA_VERSION },
  );
}

const SILENT = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * Brings `schema` up to `POSTGRES_SCHEMA_VERSION` with node-pg-migrate, all pending steps in one transaction, while
 * holding the migration advisory lock (waiting for it when another instance migrates). A database from a newer Chorus
 * is refused before anything is changed.
 * Contract: returns the schema version now in the database; throws `SessionStoreError` `schema-too-new`.
 */
export async function migrateSchema(client: ClientBase, target: PostgresTarget, schema: string): Promise<number> {
  refuseNewerSchema(await readSchemaVersion(client, schema), target, schema);
  // Loaded when a store opens, not with the package: it brings a TypeScript loader along (tens of ms at start).
  const { runner } = await import("node-pg-migrate");
  await runner({
    dbClient: client,
    dir: MIGRATIONS_DIR,
    direction: "up",
    migrationsTable: MIGRATIONS_TABLE,
    schema,
    createSchema: true,
    checkOrder: true,
    singleTransaction: true,
    advisoryLockMode: "wait",
    lockValue: MIGRATION_LOCK_KEY,
    logger: SILENT,
  });
  // A newer Chorus may have migrated between the check and the lock.
  const version = await readSchemaVersion(client, schema);
  refuseNewerSchema(version, target, schema);
  return version;
}
