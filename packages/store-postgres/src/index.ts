export {
  IMPORT_TABLES,
  type ImportCounts,
  type ImportTable,
  type StoreRowsToImport,
} from "./copy/import-store-rows.js";
export { inspectPostgresStore, type PostgresStoreInspection } from "./inspect-postgres-store.js";
export { PostgresInstanceBroadcast } from "./leases/postgres-instance-broadcast.js";
export { type ClusterOptions, DEFAULT_LEASE_MS, PostgresShardOwnership } from "./leases/postgres-shard-ownership.js";
export { SHARD_COUNT, sessionShard } from "./leases/session-shard.js";
export { PostgresSessionStore, type PostgresSessionStoreOptions } from "./postgres-session-store.js";
export { POSTGRES_SCHEMA_VERSION } from "./schema-migrations.js";
