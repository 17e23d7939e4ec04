import { setImmediate as afterIo } from "node:timers";
import type { Pool, QueryResult, QueryResultRow } from "pg";
import { isStalePreparedPlan } from "../prepared-statements.js";
import type { PoolDb, RoundTripCounter } from "../query-runner.js";
import { inLockOrder } from "./lock-order.js";
import { type BatchStatement, sendPipelinedTransaction } from "./pipelined-transaction.js";

/** How the commit queue gathers. */
export interface CommitQueueOptions {
  /** Batches on the wire at once; a write made while all are out waits for the next. */
  readonly maxInFlight: number;
  /** Most statements in one batch. */
  readonly maxBatch: number;
}

interface Queued extends BatchStatement {
  readonly sessionKey: string | undefined;
  resolve(result: QueryResult): void;
  reject(error: unknown): void;
}

/**
 * Group commit for PostgreSQL: the single-statement writes of concurrent store calls — made in the same event-loop
 * turn, or while `maxInFlight` batches are already out — go to the server together as one transaction (pipelined
 * `BEGIN`, the statements, `COMMIT`: one round trip and one WAL flush for all of them). A lone write goes alone, as
 * it would without the queue (no `BEGIN`/`COMMIT` around it).
 * Contract: each caller's promise settles only after its batch's COMMIT answered, so "resolved" still means durable;
 * when a statement fails, the batch rolled back and every statement of it runs again alone (each caller gets what
 * it would have got without the queue: one failing caller never loses the others' writes); when no connection could
 * be had or it failed on the way, every caller of the batch rejects with that error, and the batch was written whole
 * or not at all.
 */
export class CommitQueue {
  readonly #pipelined: Pool;
  readonly #solo: PoolDb;
  readonly #counter: RoundTripCounter;
  readonly #options: CommitQueueOptions;
  #queue: Queued[] = [];
  #inFlight = 0;
  #scheduled = false;

  /** `pipelined`: a pool of `pipeline: true` clients for batches; `solo`: where a lone statement (or a retry) goes. */
  constructor(pipelined: Pool, solo: PoolDb, counter: RoundTripCounter, options: CommitQueueOptions) {
    this.#pipelined = pipelined;
    this.#solo = solo;
    this.#counter = counter;
    this.#options = options;
  }

  /**
   * Queues one statement for the next batch; `sessionKey` names the session whose rows it locks (the batch takes its
   * locks in a fixed order, see `inLockOrder`). Contract: as the class.
   */
  query<R extends QueryResultRow = QueryResultRow>(
    text: string,
    values: readonly unknown[] | undefined,
    sessionKey: string | undefined,
  ): Promise<QueryResult<R>> {
    return new Promise<QueryResult<R>>((resolve, reject) => {
      this.#queue.push({ text, values, sessionKey, resolve: resolve as (result: QueryResult) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.#options.maxInFlight || this.#queue.length === 0) return;
    this.#scheduled = true;
    // After the I/O callbacks at hand: writes their answers lead to join this batch.
    afterIo(() => {
      this.#scheduled = false;
      while (this.#queue.length > 0 && this.#inFlight < this.#options.maxInFlight) {
        const batch = this.#queue.splice(0, this.#options.maxBatch);
        this.#inFlight++;
        void this.#send(batch)
          // Not expected (a batch settles its callers itself); a caller still waiting learns of it.
          .catch((error: unknown) => {
            for (const queued of batch) queued.reject(error);
          })
          .finally(() => {
            this.#inFlight--;
            this.#schedule();
          });
      }
    });
  }

  async #send(batch: readonly Queued[]): Promise<void> {
    const [only] = batch;
    if (batch.length === 1 && only !== undefined) return this.#alone(only);
    const ordered = inLockOrder(batch);
    this.#counter.count++;
    const outcome = await sendPipelinedTransaction(this.#pipelined, ordered);
    if (outcome.kind === "committed") {
      for (const [index, queued] of ordered.entries()) queued.resolve(outcome.results[index] as QueryResult);
      return;
    }
    if (outcome.kind === "unknown" || outcome.kind === "unsent") {
      for (const queued of batch) queued.reject(outcome.error);
      return;
    }
    // Nothing was written. A stale prepared plan is sent unnamed from now on (on every connection).
    if (outcome.failed !== undefined) isStalePreparedPlan(outcome.error, outcome.failed.text);
    // One after the other, in the order they were called: what each caller gets does not depend on the others.
    for (const queued of batch) await this.#alone(queued);
  }

  #alone(queued: Queued): Promise<void> {
    return this.#solo.query(queued.text, queued.values).then(queued.resolve, queued.reject);
  }
}
