export { inspectPostgresStore, type PostgresStoreInspection } from "./inspect-postgres-store.js";
export { PostgresSessionStore, type PostgresSessionStoreOptions } from "./postgres-session-store.js";
export { POSTGRES_SCHEMA_VERSION } from "./schema-migrations.js";
