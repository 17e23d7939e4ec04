import { SessionStoreError } from "@chorus/store";
import pg, { type ClientConfig } from "pg";
import { translatePostgresError } from "./postgres-errors.js";
import type { PostgresTarget } from "./postgres-target.js";

/** The first key of the owner lock (int4 space): "chor". The second is the hash of the store's schema. */
export const OWNER_LOCK_CLASS = 0x63686f72;

/** How often a lost owner lock is taken again while the database is unreachable. */
const RETAKE_INTERVAL_MS = 1000;

/**
 * How a store holds the database: `exclusive`, one gateway alone; `shared`, one instance of a cluster — cluster
 * instances share the lock with each other, and a gateway not in cluster mode is refused while any holds it (and
 * the reverse), since it would recover and answer everything unfenced.
 */
export type OwnerLockMode = "exclusive" | "shared";

/** The hold an open store keeps on its database (and schema). */
export interface DatabaseOwnerLock {
  /** Releases the lock and closes its connection. Contract: idempotent. */
  release(): Promise<void>;
}

/**
 * Makes this store the only gateway on the database's `schema`: a session-level advisory lock on a connection of its
 * own, held until `release`. A second store — a second `chorus start` on the same database by mistake — is refused at
 * once with `in-use`, before it migrates or recovers anything (its recovery would mark the first one's running turns
 * interrupted, and both would answer). Postgres drops the lock when the connection ends, even when the process is
 * killed, so there is never a stale lock to clear. When the connection breaks while the store runs, the lock is taken
 * again on a new connection as soon as the database is back (`onWarning` is told, and told if another instance holds it
 * meanwhile; the store keeps trying). Leases and fencing for several instances are issue #18's later steps.
 * Contract: returns the held lock, or throws `SessionStoreError` `in-use` (someone holds it) or `io` (unreachable).
 */
export async function acquireDatabaseOwnerLock(
  config: ClientConfig,
  target: PostgresTarget,
  schema: string,
  onWarning: (message: string) => void,
  mode: OwnerLockMode = "exclusive",
): Promise<DatabaseOwnerLock> {
  let released = false;
  let client = await lockedClient(config, target, schema, mode);
  let retake: NodeJS.Timeout | undefined;
  let toldInUse = false;

  const watch = (held: pg.Client) => {
    held.on("error", () => {}); // reported through "end"; an unhandled "error" would crash the process
    held.on("end", () => {
      if (released) return;
      onWarning(`Lost the connection that holds this gateway's lock on ${target.description}; taking it again.`);
      scheduleRetake();
    });
  };
  const scheduleRetake = () => {
    retake = setTimeout(async () => {
      retake = undefined;
      if (released) return;
      try {
        const next = await lockedClient(config, target, schema, mode);
        if (released) {
          await next.end().catch(() => {});
          return;
        }
        client = next;
        toldInUse = false;
        watch(client);
      } catch (error) {
        // Another instance got it first (told once); or the database is still unreachable. Either way, try again.
        if (error instanceof SessionStoreError && error.code === "in-use" && !toldInUse) {
          toldInUse = true;
          onWarning(error.message);
        }
        scheduleRetake();
      }
    }, RETAKE_INTERVAL_MS);
    retake.unref();
  };
  watch(client);

  return {
    release: async () => {
      if (released) return;
      released = true;
      if (retake !== undefined) clearTimeout(retake);
      // Ending the connection releases a session-level advisory lock.
      await client.end().catch(() => {});
    },
  };
}

async function lockedClient(
  config: ClientConfig,
  target: PostgresTarget,
  schema: string,
  mode: OwnerLockMode,
): Promise<pg.Client> {
  const client = new pg.Client(config);
  client.on("error", () => {}); // a failed connect rejects below; an "error" event on top must not crash the process
  let connected = false;
  try {
    await client.connect();
    connected = true;
    const take = mode === "shared" ? "pg_try_advisory_lock_shared" : "pg_try_advisory_lock";
    const { rows } = await client.query(`SELECT ${take}($1, hashtext($2)) AS locked`, [OWNER_LOCK_CLASS, schema]);
    if (rows[0]?.locked !== true && mode === "shared") {
      throw new SessionStoreError(
        "in-use",
        `A Chorus instance that is not in cluster mode is using this database (${target.description}, schema ` +
          `${schema}); cluster instances share a database only with each other. Stop it, or turn cluster mode ` +
          "(store.cluster: true) on for it too.",
        { path: target.description },
      );
    }
    if (rows[0]?.locked !== true) {
      throw new SessionStoreError(
        "in-use",
        `Another Chorus instance is using this database (${target.description}, schema ${schema}); one gateway per ` +
          "database unless every instance runs in cluster mode (store.cluster: true). Stop the other one, give this one " +
          "its own database or schema, or turn cluster mode on for all of them.",
        { path: target.description },
      );
    }
    return client;
  } catch (error) {
    if (connected) await client.end().catch(() => {});
    throw translatePostgresError(error, target);
  }
}
