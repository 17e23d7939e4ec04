import { AsyncLocalStorage } from "node:async_hooks";
import type { SessionStore, SessionStoreTransaction } from "../session-store.js";
import { SessionStoreError } from "../session-store-error.js";
import { CoreOps } from "./core-ops.js";
import type { GroupCommit } from "./group-commit.js";
import type { SessionStoreCore } from "./store-core.js";
import { TransactionGate } from "./transaction-gate.js";

/** A transaction handle: calls go straight to the core until the transaction ends. */
class CoreTransaction extends CoreOps {
  open = true;

  protected call<T>(op: () => T): Promise<T> {
    if (!this.open) {
      return Promise.reject(new SessionStoreError("closed", "This transaction has ended; use the store instead."));
    }
    try {
      return Promise.resolve(op());
    } catch (error) {
      return Promise.reject(this.core.translateError(error));
    }
  }
}

/**
 * A `SessionStore` over a synchronous core: each call runs synchronously when admitted, so a store call
 * never yields halfway; calls wait while a `transaction` is open. With `groupCommit`, the writes of concurrent calls
 * share one COMMIT and each call settles after it (see `GroupCommit`).
 */
export class CoreBackedSessionStore extends CoreOps implements SessionStore {
  private readonly gate = new TransactionGate();
  private readonly batch: GroupCommit | undefined;
  /** Marks code running inside a transaction's `fn`, where waiting for the transaction to end would wait forever. */
  private readonly insideTransaction = new AsyncLocalStorage<object>();
  /** Identifies the open transaction; work that `fn` started and that outlives it does not match a later one. */
  private openTransaction: object | undefined;
  private closed = false;

  constructor(core: SessionStoreCore, groupCommit?: GroupCommit) {
    super(core);
    this.batch = groupCommit;
  }

  protected call<T>(op: () => T): Promise<T> {
    if (this.closed) return Promise.reject(closedError());
    if (this.gate.busy) {
      if (this.isInsideOpenTransaction()) return Promise.reject(selfWaitError());
      return this.gate.idle().then(() => this.call(op));
    }
    if (this.batch !== undefined) return this.batch.run(op);
    try {
      return Promise.resolve(op());
    } catch (error) {
      return Promise.reject(this.core.translateError(error));
    }
  }

  /**
   * Reads answer at once, also while a group-commit batch is open: they see the batch's writes (one connection), which
   * are durable a moment later; waiting for the COMMIT would add an event-loop turn to every read on the turn path.
   */
  protected override read<T>(op: () => T): Promise<T> {
    if (this.closed || this.gate.busy) return this.call(op);
    try {
      return Promise.resolve(op());
    } catch (error) {
      return Promise.reject(this.core.translateError(error));
    }
  }

  async transaction<T>(fn: (tx: SessionStoreTransaction) => Promise<T> | T): Promise<T> {
    if (this.gate.busy && this.isInsideOpenTransaction()) throw selfWaitError();
    while (this.gate.busy) await this.gate.idle();
    if (this.closed) throw closedError();
    const release = this.gate.hold();
    const token = {};
    this.openTransaction = token;
    const tx = new CoreTransaction(this.core);
    const batch = this.batch;
    let result: T;
    try {
      if (batch === undefined) this.core.begin();
      else batch.beginNested();
      try {
        result = await this.insideTransaction.run(token, () => fn(tx));
        tx.open = false;
        if (batch === undefined) this.core.commit();
        else batch.endNested(true);
      } catch (error) {
        tx.open = false;
        if (batch === undefined) this.core.rollback();
        else batch.endNested(false);
        throw error;
      }
    } catch (error) {
      throw this.core.translateError(error);
    } finally {
      this.openTransaction = undefined;
      release();
    }
    // In a group commit the transaction is durable only once its batch commits.
    return batch === undefined ? result : batch.afterCommit(result);
  }

  private isInsideOpenTransaction(): boolean {
    return this.openTransaction !== undefined && this.insideTransaction.getStore() === this.openTransaction;
  }

  async close(): Promise<void> {
    if (this.gate.busy && this.isInsideOpenTransaction()) throw selfWaitError();
    while (this.gate.busy) await this.gate.idle();
    if (this.closed) return;
    this.closed = true;
    this.batch?.flush();
    await this.core.close();
  }
}

function selfWaitError(): SessionStoreError {
  return new SessionStoreError(
    "invalid-state",
    "The store was called inside its own transaction, which would wait for itself forever; use the transaction handle.",
  );
}

function closedError(): SessionStoreError {
  return new SessionStoreError("closed", "The session store is closed.");
}
