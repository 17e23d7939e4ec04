import type { Pool, PoolClient, QueryResult, QueryResultRow } from "pg";
import { isConnectionFailure } from "./postgres-errors.js";
import { isStalePreparedPlan, queryFor } from "./prepared-statements.js";

/** Where store statements go: the pool (each statement its own transaction) or one open transaction. */
export interface Db {
  /**
   * Sends one statement. `sessionKey` names the session whose rows it locks: a group commit's batch takes its locks
   * in that order (see `inLockOrder`); elsewhere it changes nothing.
   */
  query<R extends QueryResultRow = QueryResultRow>(
    text: string,
    values?: readonly unknown[],
    sessionKey?: string,
  ): Promise<QueryResult<R>>;
  /** Runs `fn` in one transaction: its own on the pool, or inside the one already open. */
  atomically<T>(fn: (db: Db) => Promise<T>): Promise<T>;
}

/**
 * Counts the round trips to the server: each statement sent on its own is one, and so is a group commit's pipelined
 * batch (`BEGIN`, its statements, `COMMIT`). What `PostgresSessionStore.roundTrips` reports.
 */
export interface RoundTripCounter {
  count: number;
}

/** A `Db` on one checked-out connection inside `BEGIN` … `COMMIT`. */
export class TransactionDb implements Db {
  readonly #client: PoolClient;
  readonly #counter: RoundTripCounter;

  constructor(client: PoolClient, counter: RoundTripCounter) {
    this.#client = client;
    this.#counter = counter;
  }

  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<QueryResult<R>> {
    this.#counter.count++;
    // A stale plan aborts the transaction: the error goes to the caller; the statement is sent unnamed from now on.
    return this.#client.query<R>(queryFor(text, values)).catch((error: unknown) => {
      isStalePreparedPlan(error, text);
      throw error;
    });
  }

  /**
   * Already inside a transaction: `fn` joins it. Store operations raise no database error for an expected refusal
   * (they check rows instead), so a refused operation leaves the transaction usable without a savepoint.
   */
  atomically<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

/** A `Db` on the pool: each statement runs on whichever connection is free, in its own (implicit) transaction. */
export class PoolDb implements Db {
  readonly #pool: Pool;
  readonly #counter: RoundTripCounter;

  constructor(pool: Pool, counter: RoundTripCounter) {
    this.#pool = pool;
    this.#counter = counter;
  }

  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<QueryResult<R>> {
    this.#counter.count++;
    return this.#pool.query<R>(queryFor(text, values)).catch((error: unknown) => {
      // Its own transaction failed and wrote nothing: sent again, unnamed.
      if (!isStalePreparedPlan(error, text)) throw error;
      this.#counter.count++;
      return this.#pool.query<R>(queryFor(text, values));
    });
  }

  atomically<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return inTransaction(this.#pool, this.#counter, fn);
  }
}

/**
 * Runs `fn` on one pooled connection between `BEGIN` and `COMMIT` (`ROLLBACK` when it throws, rethrowing).
 * Contract: the connection goes back to the pool either way; one whose ROLLBACK failed (a broken connection) is
 * destroyed instead of reused.
 */
export async function inTransaction<T>(
  pool: Pool,
  counter: RoundTripCounter,
  fn: (db: TransactionDb) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // The pool takes its own "error" listener off a connection it hands out: a reset between two statements (nothing
  // awaiting a query then) would be an uncaught "error" event. It marks the connection broken instead.
  const onError = (error: Error): void => {
    broken ??= error;
  };
  client.on("error", onError);
  try {
    counter.count++;
    await client.query("BEGIN");
    const db = new TransactionDb(client, counter);
    try {
      const result = await fn(db);
      counter.count++;
      await client.query("COMMIT");
      return result;
    } catch (error) {
      counter.count++;
      await client.query("ROLLBACK").catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    }
  } catch (error) {
    // A connection that broke or timed out mid-statement is destroyed, never handed to the next caller.
    broken ??= error instanceof Error && isConnectionFailure(error) ? error : undefined;
    throw error;
  } finally {
    client.removeListener("error", onError);
    client.release(broken);
  }
}
