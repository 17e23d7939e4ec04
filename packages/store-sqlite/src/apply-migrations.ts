import type { DatabaseSync } from "node:sqlite";
import { SessionStoreError } from "@chorus/store";
import type { SqliteMigration } from "./sqlite-migrations.js";

/**
 * Brings the database's schema (`PRAGMA user_version`) up to the newest of `migrations`, all steps in one
 * transaction, so a crash or a failing step leaves the file exactly as it was.
 * Contract: returns the version now in the file; a file newer than the code is refused with `schema-too-new`
 * and left untouched.
 */
export function applyMigrations(db: DatabaseSync, migrations: readonly SqliteMigration[], path: string): number {
  const codeVersion = migrations.at(-1)?.version ?? 0;
  refuseNewer(readUserVersion(db), codeVersion, path);
  // IMMEDIATE takes the write lock first, so two processes starting at once cannot both migrate.
  db.exec("BEGIN IMMEDIATE");
  try {
    const fileVersion = readUserVersion(db);
    refuseNewer(fileVersion, codeVersion, path);
    for (const migration of migrations) {
      if (migration.version <= fileVersion) continue;
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${Math.trunc(migration.version)}`);
    }
    db.exec("COMMIT");
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
  return readUserVersion(db);
}

function readUserVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get();
  return Number(row?.user_version ?? 0);
}

function refuseNewer(fileVersion: number, codeVersion: number, path: string): void {
  if (fileVersion <= codeVersion) return;
  throw new SessionStoreError(
    "schema-too-new",
    `The session store at ${path} has schema version ${fileVersion}, but this version of Chorus only knows up to ` +
      `version ${codeVersion}. Upgrade Chorus, or point it at another database file; the file was not changed.`,
    { path, fileVersion, codeVersion },
  );
}
