import { AsyncLocalStorage } from "node:async_hooks";
import {
  DEFAULT_INBOUND_EVENT_TTL_MS,
  type SessionStore,
  SessionStoreError,
  type SessionStoreTransaction,
} from "@chorus/store";
import pg, { type ClientConfig, type Pool } from "pg";
import { type ImportCounts, importStoreRows, type StoreRowsToImport } from "./copy/import-store-rows.js";
import { acquireDatabaseOwnerLock, type DatabaseOwnerLock } from "./database-owner-lock.js";
import { type GroupCommit, groupCommitOptions, openGroupCommit } from "./group-commit/group-commit-db.js";
import { type ClusterOptions, leaseOwnerFor, PostgresShardOwnership } from "./leases/postgres-shard-ownership.js";
import { translatePostgresError } from "./postgres-errors.js";
import { PostgresOps } from "./postgres-ops.js";
import { type PostgresTarget, postgresTarget } from "./postgres-target.js";
import { type Db, inTransaction, PoolDb, type RoundTripCounter, type TransactionDb } from "./query-runner.js";
import { migrateSchema } from "./schema-migrations.js";
import type { StoreContext } from "./sql/store-context.js";

/** Options of the PostgreSQL store. */
export interface PostgresSessionStoreOptions {
  /** `postgres://user:password@host:5432/database`. The password never appears in an error or a log. */
  url: string;
  /** The schema holding the store's tables (created when missing). Default `public`. */
  schema?: string;
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** How long a new connection may take before it fails (at open and when the pool reconnects). Default 5000 ms. */
  connectTimeoutMs?: number;
  /** How long a statement may take before its call rejects with `io` (e.g. the network went silent). Default 30 s. */
  queryTimeoutMs?: number;
  /**
   * How long a pooled connection may sit unused before it is closed. Default 60 s: a new one costs a login and a
   * server process with cold caches, which the first messages after a quiet spell would otherwise pay.
   */
  idleTimeoutMs?: number;
  /** The clock (epoch ms). Default `Date.now`. */
  now?: () => number;
  /** How long an inbound event id is remembered. Default 24 h. */
  inboundEventTtlMs?: number;
  /**
   * Hold the database's owner lock while open, so that no second gateway uses the same database and schema at the same
   * time; it is refused with `in-use`. Default true. `false` only for tools that inspect a database a gateway may be using.
   */
  exclusive?: boolean;
  /** Told about trouble that no call reports (a pooled connection that broke while idle). Default: a process warning. */
  onWarning?: (message: string) => void;
  /**
   * Group commit of the hot writes (an inbound message, a turn's commit, a sent or failed mark): those of concurrent
   * calls go to the server as one pipelined transaction — one round trip and one WAL flush for all of them — each
   * call still resolving only after that COMMIT. `maxInFlight` (default 2): batches on the wire at once, on
   * connections of their own; `maxBatch` (default 64): most writes in one. `false`: each write goes alone. Default on.
   */
  groupCommit?: false | { maxInFlight?: number; maxBatch?: number };
  /**
   * Share the database with other gateway instances (a cluster): sessions are owned by shard leases (`ownership`)
   * instead of the one-gateway owner lock, and every turn commit is fenced by its lease's epoch. Default: off.
   */
  cluster?: ClusterOptions;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A transaction handle: its calls run on the transaction's connection until it ends. */
class PostgresTransaction extends PostgresOps {
  open = true;
  readonly #db: TransactionDb;
  readonly #target: PostgresTarget;

  constructor(ctx: StoreContext, db: TransactionDb, target: PostgresTarget) {
    super(ctx);
    this.#db = db;
    this.#target = target;
  }

  protected call<T>(op: (db: Db) => Promise<T>): Promise<T> {
    if (!this.open) {
      return Promise.reject(new SessionStoreError("closed", "This transaction has ended; use the store instead."));
    }
    return op(this.#db).catch((error: unknown) => {
      throw translatePostgresError(error, this.#target);
    });
  }

  // Inside a transaction every write is already in one.
  protected write<T>(op: (db: Db) => Promise<T>): Promise<T> {
    return this.call(op);
  }
}

/**
 * The durable `SessionStore` on PostgreSQL, through a node-postgres `Pool`. Every call resolves only after its
 * statement committed (Postgres's own durability: `synchronous_commit`); the hot operations — an inbound message, a
 * turn commit, an outbox claim or mark — are one statement each, so one round trip, and those of concurrent calls
 * share one pipelined transaction (group commit: one round trip and one WAL flush for all). Schema migrations run at open
 * under an advisory lock; an open store holds the database's owner lock (one gateway per database).
 * Contract: open with `PostgresSessionStore.open`; it rejects with `SessionStoreError` — `io` (unreachable, naming
 * host:port/database and the cause, within `connectTimeoutMs`), `in-use`, `schema-too-new`, `invalid-input` (a bad
 * URL or schema) — and leaves the database unchanged in those cases. Later calls that cannot reach Postgres reject with
 * `io`, and succeed again once it is back: the pool makes new connections.
 */
export class PostgresSessionStore extends PostgresOps implements SessionStore {
  /** `host:port/database`: where the store is, without the password. */
  readonly description: string;
  /** The schema holding the store's tables. */
  readonly schema: string;
  /** The schema version of the database at open. */
  readonly schemaVersion: number;
  /** Session ownership by shard lease, when opened with `cluster`; the gateway consults it. */
  readonly ownership: PostgresShardOwnership | undefined;
  readonly #pool: Pool;
  readonly #db: PoolDb;
  readonly #groupCommit: GroupCommit;
  readonly #target: PostgresTarget;
  readonly #counter: RoundTripCounter;
  readonly #ownerLock: DatabaseOwnerLock | undefined;
  /** Marks code running inside a transaction's `fn`, where a store call would wait for that transaction's locks. */
  readonly #insideTransaction = new AsyncLocalStorage<object>();
  readonly #openTransactions = new Set<object>();
  readonly #pending = new Set<Promise<unknown>>();
  #closed = false;
  #closing: Promise<void> | undefined;

  /**
   * The store's connection pool, for other tables in the same database (`PostgresMemoryStore.open({ pool })`): a
   * turn's `sideWrites.onClient` then writes them in the turn's own transaction. Contract: the store owns it — never
   * end it; it closes with the store.
   */
  get pool(): Pool {
    return this.#pool;
  }

  private constructor(parts: {
    ctx: StoreContext;
    pool: Pool;
    target: PostgresTarget;
    schema: string;
    schemaVersion: number;
    counter: RoundTripCounter;
    ownerLock: DatabaseOwnerLock | undefined;
    ownership: PostgresShardOwnership | undefined;
    groupCommit: (solo: PoolDb) => GroupCommit;
  }) {
    super(parts.ctx);
    this.#pool = parts.pool;
    this.#target = parts.target;
    this.#counter = parts.counter;
    this.#db = new PoolDb(parts.pool, parts.counter);
    this.#groupCommit = parts.groupCommit(this.#db);
    this.#ownerLock = parts.ownerLock;
    this.description = parts.target.description;
    this.schema = parts.schema;
    this.schemaVersion = parts.schemaVersion;
    this.ownership = parts.ownership;
  }

  /** Connects, takes the owner lock, migrates and opens the pool. Contract: see the class. */
  static async open(options: PostgresSessionStoreOptions): Promise<PostgresSessionStore> {
    const target = postgresTarget(options.url);
    const schema = options.schema ?? "public";
    if (!SCHEMA_NAME.test(schema)) {
      throw new SessionStoreError(
        "invalid-input",
        `The store schema must be a plain SQL name, got ${JSON.stringify(schema)}.`,
      );
    }
    const groupCommit = groupCommitOptions(options.groupCommit);
    const onWarning = options.onWarning ?? ((message: string) => process.emitWarning(message));
    const clientConfig: ClientConfig = {
      connectionString: target.url,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      keepAlive: true,
      application_name: "chorus",
      options: `-c search_path=${schema}`,
    };
    // Taken before anything is read or migrated: a second gateway stops here, with the first one's work untouched.
    const ownerLock =
      options.exclusive === false
        ? undefined
        : await acquireDatabaseOwnerLock(
            clientConfig,
            target,
            schema,
            onWarning,
            options.cluster === undefined ? "exclusive" : "shared",
          );
    try {
      const schemaVersion = await migrate(clientConfig, target, schema);
      const poolConfig = {
        ...clientConfig,
        query_timeout: options.queryTimeoutMs ?? 30_000,
        idleTimeoutMillis: options.idleTimeoutMs ?? 60_000,
      };
      const pool = new pg.Pool({ ...poolConfig, max: options.poolSize ?? 10 });
      // A pooled connection that breaks while idle is dropped by the pool; the next call makes a new one.
      pool.on("error", (error) =>
        onWarning(`A PostgreSQL connection to ${target.description} broke: ${error.message}`),
      );
      const ctx: StoreContext = {
        now: options.now ?? Date.now,
        inboundTtlMs: options.inboundEventTtlMs ?? DEFAULT_INBOUND_EVENT_TTL_MS,
        ...(options.cluster === undefined ? {} : { leaseOwner: leaseOwnerFor(options.cluster.instanceId) }),
      };
      const counter = { count: 0 };
      const ownership =
        options.cluster === undefined
          ? undefined
          : new PostgresShardOwnership({
              db: new PoolDb(pool, counter),
              ctx,
              clientConfig,
              schema,
              options: options.cluster,
              onWarning,
            });
      return new PostgresSessionStore({
        ctx,
        pool,
        target,
        schema,
        schemaVersion,
        counter,
        ownerLock,
        ownership,
        groupCommit: (solo: PoolDb) =>
          openGroupCommit({
            config: poolConfig,
            solo,
            counter,
            options: groupCommit,
            description: target.description,
            onWarning,
          }),
      });
    } catch (error) {
      await ownerLock?.release();
      throw error;
    }
  }

  /**
   * Round trips to Postgres so far, for benchmarks: a statement sent alone is one (BEGIN and COMMIT of `transaction`
   * included), and so is a group commit's pipelined batch, whatever it holds.
   */
  get roundTrips(): number {
    return this.#counter.count;
  }

  /**
   * Fills this store's empty tables with another store's rows (`chorus store copy`), in one transaction.
   * Contract: all or nothing; rejects with `invalid-state` when the store already has data, leaving it unchanged.
   * Open the store exclusive (the default), so that no gateway uses the database during the copy.
   * @example
   * const counts = await store.importRows(readSqliteStoreRows(file).rows);
   */
  importRows(rows: StoreRowsToImport): Promise<ImportCounts> {
    if (this.#closed) return Promise.reject(closedError());
    return this.#track(
      inTransaction(this.#pool, this.#counter, (db) => importStoreRows(db, rows)).catch((error: unknown) => {
        throw translatePostgresError(error, this.#target);
      }),
    );
  }

  protected call<T>(op: (db: Db) => Promise<T>): Promise<T> {
    return this.#run(this.#db, op);
  }

  protected write<T>(op: (db: Db) => Promise<T>): Promise<T> {
    return this.#run(this.#groupCommit.db, op);
  }

  #run<T>(db: Db, op: (db: Db) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(closedError());
    if (this.#isInsideOpenTransaction()) return Promise.reject(selfWaitError());
    return this.#track(
      op(db).catch((error: unknown) => {
        throw translatePostgresError(error, this.#target);
      }),
    );
  }

  async transaction<T>(fn: (tx: SessionStoreTransaction) => Promise<T> | T): Promise<T> {
    if (this.#isInsideOpenTransaction()) throw selfWaitError();
    if (this.#closed) throw closedError();
    const token = {};
    this.#openTransactions.add(token);
    const run = inTransaction(this.#pool, this.#counter, async (db) => {
      const tx = new PostgresTransaction(this.ctx, db, this.#target);
      try {
        return await this.#insideTransaction.run(token, () => fn(tx));
      } finally {
        tx.open = false;
      }
    });
    try {
      return await this.#track(run);
    } catch (error) {
      throw translatePostgresError(error, this.#target);
    } finally {
      this.#openTransactions.delete(token);
    }
  }

  /** Waits for the calls and transactions under way, then closes the pool and releases the owner lock. */
  close(): Promise<void> {
    if (this.#isInsideOpenTransaction()) return Promise.reject(selfWaitError());
    this.#closing ??= (async () => {
      this.#closed = true;
      while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
      // Leases go before the pool: another instance takes these sessions at once, without waiting for expiry.
      await this.ownership?.stop();
      await this.ownership?.broadcast.close();
      await this.#groupCommit.close();
      await this.#pool.end().catch(() => {});
      await this.#ownerLock?.release();
    })();
    return this.#closing;
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#pending.add(promise);
    const forget = () => this.#pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  #isInsideOpenTransaction(): boolean {
    const token = this.#insideTransaction.getStore();
    return token !== undefined && this.#openTransactions.has(token);
  }
}

/** Runs the migrations on a connection of their own (no statement timeout: a migration may take long). */
async function migrate(config: ClientConfig, target: PostgresTarget, schema: string): Promise<number> {
  const client = new pg.Client(config);
  client.on("error", () => {}); // a broken connection rejects the migration's query; the event must not crash
  let connected = false;
  try {
    await client.connect();
    connected = true;
    return await migrateSchema(client, target, schema);
  } catch (error) {
    throw translatePostgresError(error, target);
  } finally {
    if (connected) await client.end().catch(() => {});
  }
}

function selfWaitError(): SessionStoreError {
  return new SessionStoreError(
    "invalid-state",
    "The store was called inside its own transaction, which would wait for itself; use the transaction handle.",
  );
}

function closedError(): SessionStoreError {
  return new SessionStoreError("closed", "The session store is closed.");
}
