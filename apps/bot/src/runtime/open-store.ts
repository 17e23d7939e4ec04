import { hostname } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { MemorySessionStore, type SessionStore } from "@chorus/gateway";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import type { BotConfig } from "../config/bot-config-schema.js";

/** The store a configuration asks for, and how to describe it. */
export interface OpenedStore {
  readonly store: SessionStore;
  /** e.g. "SQLite /srv/bot/data/chorus.db", "PostgreSQL db.internal:5432/chorus" or "memory (nothing survives a restart)". */
  readonly description: string;
}

/** Where the SQLite file of a configuration lives. */
export function storePathOf(config: Pick<BotConfig, "store" | "dataDir">, cwd: string): string | undefined {
  if (config.store.kind !== "sqlite") return undefined;
  const path = config.store.path ?? join(config.dataDir, "chorus.db");
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/**
 * Opens the configured session store (SQLite by default, under the data dir; PostgreSQL with `kind: postgres`, whose
 * trouble between calls — a broken idle connection, its owner lock lost and taken again — goes to `onWarning`).
 * Contract: rejects with SessionStoreError when the store cannot be used — SQLite: `corrupt`, `locked`, `in-use`, `io`,
 * `schema-too-new`; PostgreSQL: `io` (unreachable: host:port and the cause, never the password), `in-use` (another
 * Chorus holds the database), `schema-too-new`.
 */
export async function openStore(
  config: Pick<BotConfig, "store" | "dataDir" | "instanceId">,
  cwd: string,
  onWarning?: (message: string) => void,
): Promise<OpenedStore> {
  if (config.store.kind === "postgres") {
    const { url, schema, cluster, leaseMs, unknownOutcomeGraceMs } = config.store;
    // Loaded only here: a bot on SQLite never pays for the PostgreSQL client and migration runner at start.
    const { PostgresSessionStore } = await import("@chorus/store-postgres");
    const store = await PostgresSessionStore.open({
      url,
      ...(schema === undefined ? {} : { schema }),
      ...(onWarning === undefined ? {} : { onWarning }),
      // A cluster instance holds shard leases instead of the one-gateway owner lock.
      ...(cluster
        ? {
            cluster: {
              instanceId: instanceIdOf(config),
              ...(leaseMs === undefined ? {} : { leaseMs }),
              ...(unknownOutcomeGraceMs === undefined ? {} : { unknownOutcomeGraceMs }),
            },
          }
        : {}),
    });
    const where = postgresDescription(store.description, store.schema);
    return {
      store,
      description: cluster ? `${where}, cluster instance ${instanceIdOf(config)}` : where,
    };
  }
  const path = storePathOf(config, cwd);
  if (path === undefined) {
    return { store: new MemorySessionStore(), description: "memory (nothing survives a restart)" };
  }
  return { store: SqliteSessionStore.open({ path }), description: `SQLite ${path}` };
}

/** "PostgreSQL host:5432/chorus", with the schema when it is not the default. */
export function postgresDescription(where: string, schema: string): string {
  return `PostgreSQL ${where}${schema === "public" ? "" : ` (schema ${schema})`}`;
}

/** The instance's name in a cluster: configured, or `host:pid`. */
export function instanceIdOf(config: Pick<BotConfig, "instanceId">): string {
  return config.instanceId ?? `${hostname()}:${process.pid}`;
}
