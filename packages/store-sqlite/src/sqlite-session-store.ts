import type { DatabaseSync } from "node:sqlite";
import { CoreBackedSessionStore, GroupCommit } from "@chorus/store";
import { ensureStoreFolder, openSqliteDatabase } from "./open-sqlite-database.js";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
import { SqliteStoreCore } from "./sqlite-store-core.js";
import { acquireStoreOwnerLock } from "./store-owner-lock.js";
import { WalCheckpointer } from "./wal-checkpointer.js";

/** The default database file, relative to the working directory. */
export const DEFAULT_SQLITE_PATH = "./data/chorus.db";

/** Options of the SQLite store. */
export interface SqliteSessionStoreOptions {
  /** The database file (its folder is created). Default `./data/chorus.db`; `":memory:"` for a private in-memory database. */
  path?: string;
  /** How long to wait for another process's lock before failing with `locked`. Default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * How often a worker thread checkpoints the WAL into the database. Default 1000 ms.
   * 0 leaves it to SQLite's auto-checkpoint, which runs inside a commit on the event loop (tens of ms on a busy disk).
   */
  checkpointIntervalMs?: number;
  /** Told when a background checkpoint fails (the WAL then grows until one succeeds). Default: a process warning. */
  onCheckpointError?: (message: string) => void;
  /** The clock (epoch ms). Default `Date.now`. */
  now?: () => number;
  /** How long an inbound event id is remembered. Default 24 h. */
  inboundEventTtlMs?: number;
  /**
   * Hold `<path>.lock` while open, so that no second store (a second gateway by mistake, in this process or another)
   * uses the file at the same time; it is refused with `in-use`. Default true. `false` only for tools that inspect a
   * file a gateway may be using.
   */
  exclusive?: boolean;
  /**
   * Group commit (default true): the writes of calls made in the same event-loop turn share one COMMIT; each call
   * still resolves only after the COMMIT that made it durable. `false` commits every call on its own (slower).
   */
  groupCommit?: boolean;
}

/**
 * The durable `SessionStore` on embedded SQLite (`node:sqlite`): WAL journal, versioned migrations applied at open,
 * each turn's writes in one transaction, checkpoints on a worker thread. Everything committed survives a crash or
 * SIGKILL of the process.
 * Contract: open with `SqliteSessionStore.open`; it throws a `SessionStoreError` (`in-use`, `corrupt`, `locked`, `io`,
 * `schema-too-new`) when the file cannot be used, and leaves the file unchanged in that case.
 */
export class SqliteSessionStore extends CoreBackedSessionStore {
  /** The database file in use. */
  readonly path: string;
  /**
   * The open database, to keep other tables in the same file (`new SqliteMemoryStore({ database })`): a turn's
   * `sideWrites.sync` then writes them in the turn's own transaction. Contract: the store owns it — never close
   * it, and keep each use synchronous (a transaction opened on it must end in the same tick).
   */
  readonly database: DatabaseSync;

  private constructor(core: SqliteStoreCore, path: string, groupCommit: boolean) {
    super(core, groupCommit ? new GroupCommit(core) : undefined);
    this.path = path;
    this.database = core.connection;
  }

  /** Opens (creating and migrating as needed) the store. Contract: see the class. */
  static open(options: SqliteSessionStoreOptions = {}): SqliteSessionStore {
    const path = options.path ?? DEFAULT_SQLITE_PATH;
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    const intervalMs = options.checkpointIntervalMs ?? 1000;
    const threaded = intervalMs > 0 && path !== ":memory:";
    ensureStoreFolder(path);
    // Taken before anything is read or migrated: a second gateway stops here, with the first one's work untouched.
    const ownerLock = options.exclusive !== false && path !== ":memory:" ? acquireStoreOwnerLock(path) : undefined;
    let db: DatabaseSync;
    try {
      db = openSqliteDatabase(path, { busyTimeoutMs, autoCheckpoint: !threaded }, SQLITE_MIGRATIONS);
    } catch (error) {
      ownerLock?.release();
      throw error;
    }
    const onError =
      options.onCheckpointError ??
      ((message: string) => process.emitWarning(`Session store checkpoint failed for ${path}: ${message}`));
    const core = new SqliteStoreCore(db, {
      path,
      now: options.now ?? Date.now,
      ...(options.inboundEventTtlMs !== undefined ? { inboundEventTtlMs: options.inboundEventTtlMs } : {}),
      ...(threaded ? { checkpointer: new WalCheckpointer({ path, intervalMs, busyTimeoutMs, onError }) } : {}),
      ...(ownerLock === undefined ? {} : { ownerLock }),
    });
    return new SqliteSessionStore(core, path, options.groupCommit ?? true);
  }
}
