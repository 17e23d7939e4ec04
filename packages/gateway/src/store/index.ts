export {
  type MeasureOptions,
  measureSessionStore,
  type SessionStoreMeasurement,
} from "./bench/measure-session-store.js";
export { MemorySessionStore, type MemorySessionStoreOptions } from "./memory/memory-session-store.js";
export type { SessionStore, SessionStoreOps, SessionStoreTransaction } from "./session-store.js";
export { isSessionStoreError, SessionStoreError, type SessionStoreErrorCode } from "./session-store-error.js";
export { SQLITE_SCHEMA_VERSION } from "./sqlite/sqlite-migrations.js";
export {
  DEFAULT_SQLITE_PATH,
  SqliteSessionStore,
  type SqliteSessionStoreOptions,
} from "./sqlite/sqlite-session-store.js";
export type * from "./store-types.js";
