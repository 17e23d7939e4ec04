import { SessionStoreError } from "@chorus/store";
import pg, { type PoolConfig, type QueryResult, type QueryResultRow } from "pg";
import type { Db, PoolDb, RoundTripCounter } from "../query-runner.js";
import { CommitQueue, type CommitQueueOptions } from "./commit-queue.js";

/**
 * The `Db` of the store's hot writes: each statement goes through the commit queue (group commit, see `CommitQueue`);
 * `atomically` is a transaction of its own on the pool, as on `PoolDb` (several statements that must see each other
 * are not mixed into a batch).
 */
export class GroupCommitDb implements Db {
  readonly #queue: CommitQueue;
  readonly #pool: PoolDb;

  constructor(queue: CommitQueue, pool: PoolDb) {
    this.#queue = queue;
    this.#pool = pool;
  }

  query<R extends QueryResultRow = QueryResultRow>(
    text: string,
    values?: readonly unknown[],
    sessionKey?: string,
  ): Promise<QueryResult<R>> {
    return this.#queue.query<R>(text, values, sessionKey);
  }

  atomically<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.#pool.atomically(fn);
  }
}

/** What `openGroupCommit` gives the store: the `Db` of its hot writes, and how to close the batches' connections. */
export interface GroupCommit {
  readonly db: Db;
  /** Ends the batches' pool. Contract: call after every write settled. */
  close(): Promise<void>;
}

/**
 * The group commit's options with their defaults (2 batches on the wire, 64 writes a batch), or `false` (off).
 * Contract: throws `invalid-input` for a limit that is not a whole number ≥ 1.
 */
export function groupCommitOptions(
  options: false | Partial<CommitQueueOptions> | undefined,
): false | CommitQueueOptions {
  if (options === false) return false;
  const resolved = { maxInFlight: options?.maxInFlight ?? 2, maxBatch: options?.maxBatch ?? 64 };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new SessionStoreError("invalid-input", `groupCommit.${name} must be a whole number ≥ 1, got ${value}.`);
    }
  }
  return resolved;
}

/**
 * The store's group commit: a pool of `maxInFlight` pipelined connections (`pipeline: true`, node-postgres 8.23) for
 * the batches, and the queue in front of it; `solo` (the store's pool) takes lone writes and retries. With `options`
 * false, the hot writes go to `solo` one by one, as every other call.
 */
export function openGroupCommit(parts: {
  readonly config: PoolConfig;
  readonly solo: PoolDb;
  readonly counter: RoundTripCounter;
  readonly options: false | CommitQueueOptions;
  /** `host:port/database`, for the warning about a connection that broke while idle. */
  readonly description: string;
  readonly onWarning: (message: string) => void;
}): GroupCommit {
  const { solo, options } = parts;
  if (options === false) return { db: solo, close: async () => {} };
  const pool = new pg.Pool({ ...parts.config, max: options.maxInFlight, pipeline: true });
  pool.on("error", (error) =>
    parts.onWarning(`A PostgreSQL connection to ${parts.description} (group commit) broke: ${error.message}`),
  );
  const queue = new CommitQueue(pool, solo, parts.counter, options);
  return { db: new GroupCommitDb(queue, solo), close: () => pool.end().catch(() => {}) };
}
