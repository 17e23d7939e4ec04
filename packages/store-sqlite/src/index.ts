export { SQLITE_SCHEMA_VERSION } from "./sqlite-migrations.js";
export { DEFAULT_SQLITE_PATH, SqliteSessionStore, type SqliteSessionStoreOptions } from "./sqlite-session-store.js";
