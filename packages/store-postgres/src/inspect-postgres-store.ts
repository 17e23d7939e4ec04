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
  /** This machine's clock minus the database's (ms, measured around one query); leases use the database's. */
  readonly clockSkewMs: number;
  /** Cluster instances that beat within the last minute, with the shards each holds unexpired (schema 2 and later). */
  readonly clusterInstances: readonly {
    readonly id: string;
    readonly heartbeatAgeMs: number;
    readonly shards: number;
  }[];
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Connects once and reads the server version, the schema version, whether a gateway holds the database, the clock
 * skew against the database and the cluster instances alive with their shards: what
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
    const before = Date.now();
    const clock = await client.query("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now");
    const clockSkewMs = Math.round((before + Date.now()) / 2 - Number(clock.rows[0]?.now));
    const clusterInstances =
      schemaVersion >= 2 && PLAIN_NAME.test(schema)
        ? (
            await client.query(
              `SELECT i.instance_id, $1::bigint - i.heartbeat_at AS age,
                 (SELECT count(*) FROM ${schema}.shard_leases l WHERE l.owner = i.instance_id AND l.expires_at > $1)
                   AS shards
               FROM ${schema}.cluster_instances i WHERE i.heartbeat_at > $1::bigint - 60000 ORDER BY i.instance_id`,
              [Number(clock.rows[0]?.now)],
            )
          ).rows.map((row) => ({
            id: String(row.instance_id),
            heartbeatAgeMs: Number(row.age),
            shards: Number(row.shards),
          }))
        : [];
    return {
      description: target.description,
      schema,
      serverVersion: String(server.rows[0]?.server_version ?? "unknown"),
      schemaVersion,
      codeVersion: POSTGRES_SCHEMA_VERSION,
      inUse: held.rows[0]?.in_use === true,
      clockSkewMs,
      clusterInstances,
    };
  } catch (error) {
    throw translatePostgresError(error, target);
  } finally {
    if (connected) await client.end().catch(() => {});
  }
}
