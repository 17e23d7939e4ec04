export {
  readSqliteStoreRows,
  type SqliteStoreRowsRead,
  STORE_COPY_TABLES,
  type StoreCopyRow,
  type StoreCopyRows,
  type StoreCopyTable,
} from "./copy/read-sqlite-store-rows.js";
export { keepDatabaseFilesPrivate } from "./private-database-file.js";
export { SQLITE_SCHEMA_VERSION } from "./sqlite-migrations.js";
export { DEFAULT_SQLITE_PATH, SqliteSessionStore, type SqliteSessionStoreOptions } from "./sqlite-session-store.js";
