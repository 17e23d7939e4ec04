import { setImmediate as afterIo } from "node:timers";
import type { SessionStoreCore } from "./store-core.js";

/** An engine that can nest: savepoints inside the one open transaction (SQLite). */
export interface NestingStoreCore extends SessionStoreCore {
  /** Opens a savepoint. Contract: only inside an open transaction. */
  beginSavepoint(): void;
  /** Keeps the savepoint's writes (they commit with the transaction). */
  releaseSavepoint(): void;
  /** Undoes the savepoint's writes and closes it; the transaction stays open. Contract: never throws for an open one. */
  rollbackToSavepoint(): void;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit: the writes of every store call made while a batch is open share one transaction, committed once
 * the event loop has run the I/O callbacks at hand (`setImmediate`). A caller's promise settles only after that
 * COMMIT, so "resolved" still means "durable" for each caller; a COMMIT costs one WAL append instead of one per call.
 * A call that fails leaves none of its writes behind: a single statement undoes itself, and every operation of
 * several writes runs in a savepoint (`atomically`).
 * Contract: a transaction handle's work (`beginNested` … `endNested`) holds the batch open until it ends.
 */
export class GroupCommit {
  readonly #core: NestingStoreCore;
  #open = false;
  #waiters: Waiter[] = [];
  #scheduled = false;
  /** A `transaction(fn)` is inside the batch: committing now would commit half of it. */
  #nested = false;
  #commitWhenUnnested = false;

  constructor(core: NestingStoreCore) {
    this.#core = core;
  }

  /** True while writes wait for their COMMIT. */
  get open(): boolean {
    return this.#open;
  }

  /** Runs `op` in the batch. Contract: resolves with its result after the batch commits; a failed op rejects at once. */
  run<T>(op: () => T): Promise<T> {
    let value: T;
    try {
      this.#ensureOpen();
      // Single-statement ops are atomic by themselves; multi-statement ones bring their own savepoint (`atomically`).
      value = op();
    } catch (error) {
      // Nothing of this op is left; the batch still commits what others wrote.
      if (this.#open) this.#schedule();
      return Promise.reject(this.#core.translateError(error));
    }
    return this.afterCommit(value);
  }

  /** Resolves with `value` once the open batch has committed (at once when none is open). */
  afterCommit<T>(value: T): Promise<T> {
    if (!this.#open) return Promise.resolve(value);
    return new Promise<T>((resolve, reject) => {
      this.#waiters.push({ resolve: () => resolve(value), reject });
      this.#schedule();
    });
  }

  /** Opens a savepoint for a transaction's `fn`; the batch cannot commit until `endNested`. */
  beginNested(): void {
    this.#ensureOpen();
    this.#core.beginSavepoint();
    this.#nested = true;
  }

  /** Closes the transaction's savepoint, keeping (`keep`) or undoing its writes. */
  endNested(keep: boolean): void {
    try {
      if (keep) this.#core.releaseSavepoint();
      else this.#core.rollbackToSavepoint();
    } finally {
      this.#nested = false;
      if (this.#commitWhenUnnested) {
        this.#commitWhenUnnested = false;
        this.#schedule();
      }
    }
  }

  /** Commits the open batch now (on close). Contract: settles every waiting caller. */
  flush(): void {
    if (!this.#open) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#open = false;
    try {
      this.#core.commit();
    } catch (error) {
      this.#core.rollback();
      const translated = this.#core.translateError(error);
      for (const waiter of waiters) waiter.reject(translated);
      return;
    }
    for (const waiter of waiters) waiter.resolve();
  }

  #ensureOpen(): void {
    if (this.#open) return;
    this.#core.begin();
    this.#open = true;
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    afterIo(() => {
      this.#scheduled = false;
      if (this.#nested) {
        this.#commitWhenUnnested = true;
        return;
      }
      this.flush();
    });
  }
}
