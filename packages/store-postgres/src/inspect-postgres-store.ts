import pg from "pg";
import { OWNER_LOCK_CLASS } from "./database-owner-lock.js";
import { translatePostgresError } from "./postgres-errors.js";
import { postgresTarget } from "./postgres-target.js";
import { POSTGRES_SCHEMA_VERSION, readSchemaVersion } from "./schema-migrations.js";

/** What `inspectPostgresStore` found, without changing anything. */
export interface PostgresStoreInspection {
  /** `host:port/database`, without the password. */
  readonly description: string;
  readonly schema: string;
  /** e.g. "15.20". */
  readonly serverVersion: string;
  /** The schema version in the database; 0 when Chorus never migrated it (start will). */
  readonly schemaVersion: number;
  /** The newest schema version this code writes; a database above it is refused at start. */
  readonly codeVersion: number;
  /** A running store holds the database's owner lock (a gateway is using it). */
  readonly inUse: boolean;
}

/**
 * Connects once and reads the server version, the schema version and whether a gateway holds the database: what
 * `chorus doctor` reports. Nothing is migrated or locked (a gateway starting meanwhile is not disturbed).
 * Contract: rejects with `SessionStoreError` — `io` when unreachable (within `connectTimeoutMs`, default 5000 ms),
 * `invalid-input` for a bad URL — never naming the password.
 */
export async function inspectPostgresStore(options: {
  url: string;
  schema?: string;
  connectTimeoutMs?: number;
}): Promise<PostgresStoreInspection> {
  const target = postgresTarget(options.url);
  const schema = options.schema ?? "public";
  const client = new pg.Client({
    connectionString: target.url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    application_name: "chorus doctor",
  });
  client.on("error", () => {}); // a broken connection rejects the query below
  let connected = false;
  try {
    await client.connect();
    connected = true;
    const server = await client.query("SHOW server_version");
    const schemaVersion = await readSchemaVersion(client, schema);
    // A two-key advisory lock shows in pg_locks as classid/objid with objsubid 2 (objid is the key as an unsigned oid).
    const held = await client.query(
      `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
         AND classid = $1::bigint::oid AND objid = (hashtext($2)::bigint & 4294967295)::oid
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS in_use`,
      [OWNER_LOCK_CLASS, schema],
    );
    return {
      description: target.description,
      schema,
      serverVersion: String(server.rows[0]?.server_version ?? "unknown"),
      schemaVersion,
      codeVersion: POSTGRES_SCHEMA_VERSION,
      inUse: held.rows[0]?.in_use === true,
    };
  } catch (error) {
    throw translatePostgresError(error, target);
  } finally {
    if (connected) await client.end().catch(() => {});
  }
}
