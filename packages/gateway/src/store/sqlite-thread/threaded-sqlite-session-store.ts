import { AsyncLocalStorage } from "node:async_hooks";
import type { Worker } from "node:worker_threads";
import type { SessionStore, SessionStoreTransaction } from "../session-store.js";
import { SessionStoreError } from "../session-store-error.js";
import { openSqliteDatabase } from "../sqlite/open-sqlite-database.js";
import { SQLITE_MIGRATIONS } from "../sqlite/sqlite-migrations.js";
import { DEFAULT_SQLITE_PATH, type SqliteSessionStoreOptions } from "../sqlite/sqlite-session-store.js";
import { RemoteStoreOps } from "./remote-store-ops.js";
import { spawnStoreWorker } from "./spawn-store-worker.js";
import {
  fromWireError,
  type StoreOpName,
  type StoreThreadMessage,
  type StoreThreadRequest,
} from "./store-thread-messages.js";
import type { StoreThreadOptions } from "./store-thread-options.js";

/** A request before the store stamps it with an id and the caller's clock. */
type RequestBody = StoreThreadRequest extends infer R ? (R extends unknown ? Omit<R, "id" | "at"> : never) : never;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A transaction handle: its calls go to the transaction until it ends. */
class ThreadTransaction extends RemoteStoreOps {
  open = true;
  readonly #send: (method: StoreOpName, args: unknown[]) => Promise<unknown>;

  constructor(send: (method: StoreOpName, args: unknown[]) => Promise<unknown>) {
    super();
    this.#send = send;
  }

  protected invoke(method: StoreOpName, args: unknown[]): never {
    const result = this.open
      ? this.#send(method, args)
      : Promise.reject(new SessionStoreError("closed", "This transaction has ended; use the store instead."));
    return result as never;
  }
}

/**
 * The SQLite store on its own thread: the same database, schema, guarantees and behaviour as `SqliteSessionStore`
 * (which runs in the worker), but its statements, COMMITs and JSON work run beside the event loop instead of on it.
 * Calls made in one event-loop turn travel together; each call still resolves only after the COMMIT that made it
 * durable, and calls run in the order they were made. Records come back as copies (structured clone).
 * Contract: open with `ThreadedSqliteSessionStore.open`, which throws the same `SessionStoreError`s as
 * `SqliteSessionStore.open` (`corrupt`, `locked`, `io`, `schema-too-new`) synchronously; if the thread dies later,
 * every pending and later call rejects with `io`. An idle store does not keep the process alive.
 */
export class ThreadedSqliteSessionStore extends RemoteStoreOps implements SessionStore {
  /** The database file in use. */
  readonly path: string;
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  readonly #now: () => number;
  readonly #onCheckpointError: (message: string) => void;
  readonly #pending = new Map<number, Pending>();
  #queue: StoreThreadRequest[] = [];
  #nextId = 1;
  #nextTransaction = 1;
  #closed = false;
  #closing: Promise<void> | undefined;
  #failure: Error | undefined;
  /** Marks code running inside a transaction's `fn`, where a call on the store itself would wait for itself. */
  readonly #insideTransaction = new AsyncLocalStorage<number>();
  readonly #openTransactions = new Set<number>();

  private constructor(worker: Worker, options: SqliteSessionStoreOptions & { path: string }) {
    super();
    this.path = options.path;
    this.#worker = worker;
    this.#now = options.now ?? Date.now;
    this.#onCheckpointError =
      options.onCheckpointError ??
      ((message: string) => process.emitWarning(`Session store checkpoint failed for ${options.path}: ${message}`));
    worker.on("message", (message: StoreThreadMessage) => this.#receive(message));
    worker.on("error", (error) => this.#fail(threadError(`failed: ${error.message}`, error)));
    this.#exited = new Promise((resolve) => {
      worker.once("exit", (code) => {
        if (!this.#closed) this.#fail(threadError(`stopped unexpectedly (exit code ${code})`));
        resolve();
      });
    });
    // Held only while calls are in flight: an idle store never keeps the process alive.
    worker.unref();
  }

  /** Opens (creating and migrating as needed) the store and starts its thread. Contract: see the class. */
  static open(options: SqliteSessionStoreOptions = {}): ThreadedSqliteSessionStore {
    const path = options.path ?? DEFAULT_SQLITE_PATH;
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    // Opened here first, so that a file that cannot be used fails now, with the in-thread store's typed errors.
    if (path !== ":memory:")
      openSqliteDatabase(path, { busyTimeoutMs, autoCheckpoint: true }, SQLITE_MIGRATIONS).close();
    const threadOptions: StoreThreadOptions = {
      path,
      busyTimeoutMs,
      ...(options.checkpointIntervalMs === undefined ? {} : { checkpointIntervalMs: options.checkpointIntervalMs }),
      ...(options.inboundEventTtlMs === undefined ? {} : { inboundEventTtlMs: options.inboundEventTtlMs }),
      ...(options.groupCommit === undefined ? {} : { groupCommit: options.groupCommit }),
    };
    return new ThreadedSqliteSessionStore(spawnStoreWorker(threadOptions), { ...options, path });
  }

  protected invoke(method: StoreOpName, args: unknown[]): never {
    const result = this.#admit() ?? this.#send({ kind: "call", method, args });
    return result as never;
  }

  async transaction<T>(fn: (tx: SessionStoreTransaction) => Promise<T> | T): Promise<T> {
    const refused = this.#admit();
    if (refused !== undefined) return refused;
    const id = this.#nextTransaction++;
    // Resolves once the store's thread holds the transaction (after any other one has ended).
    await this.#send({ kind: "begin", tx: id });
    this.#openTransactions.add(id);
    const handle = new ThreadTransaction((method, args) => this.#send({ kind: "call", method, args, tx: id }));
    let result: T;
    try {
      result = await this.#insideTransaction.run(id, () => fn(handle));
    } catch (error) {
      handle.open = false;
      this.#openTransactions.delete(id);
      await this.#send({ kind: "end", tx: id, keep: false });
      throw error;
    }
    handle.open = false;
    this.#openTransactions.delete(id);
    // Settles after the COMMIT of the batch the transaction joined.
    await this.#send({ kind: "end", tx: id, keep: true });
    return result;
  }

  close(): Promise<void> {
    if (this.#isInsideOpenTransaction()) return Promise.reject(selfWaitError());
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#closed = true;
    // The thread's store waits for an open transaction, commits what is pending and closes the file.
    if (this.#failure === undefined) await this.#send({ kind: "close" });
    // Held while the thread winds down, so the process waits for the file to be closed instead of exiting under it.
    this.#worker.ref();
    await this.#exited;
  }

  /** Why a store call cannot be taken now, as a rejection; `undefined` when it can. */
  #admit(): Promise<never> | undefined {
    if (this.#closed) return Promise.reject(new SessionStoreError("closed", "The session store is closed."));
    if (this.#isInsideOpenTransaction()) return Promise.reject(selfWaitError());
    return undefined;
  }

  #isInsideOpenTransaction(): boolean {
    const id = this.#insideTransaction.getStore();
    return id !== undefined && this.#openTransactions.has(id);
  }

  #send(body: RequestBody): Promise<unknown> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const request = { ...body, id: this.#nextId++, at: this.#now() } as StoreThreadRequest;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(request.id, { resolve, reject });
      // Every call made in this event-loop turn goes in one message.
      if (this.#queue.push(request) === 1) queueMicrotask(this.#flush);
    });
  }

  readonly #flush = (): void => {
    const batch = this.#queue;
    this.#queue = [];
    if (this.#failure === undefined) this.#worker.postMessage(batch);
  };

  #receive(message: StoreThreadMessage): void {
    if (message.kind === "checkpoint-error") {
      this.#onCheckpointError(message.message);
      return;
    }
    if (message.kind === "fatal") {
      this.#fail(fromWireError(message.error));
      return;
    }
    for (const reply of message.replies) {
      const pending = this.#pending.get(reply.id);
      if (pending === undefined) continue;
      this.#pending.delete(reply.id);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(fromWireError(reply.error));
    }
    if (this.#pending.size === 0) this.#worker.unref();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#queue = [];
    this.#worker.unref();
    for (const entry of pending) entry.reject(this.#failure);
  }
}

function threadError(what: string, cause?: unknown): SessionStoreError {
  return new SessionStoreError(
    "io",
    `The session store's thread ${what}; calls cannot be served. Restart the process.`,
    cause === undefined ? {} : { cause },
  );
}

function selfWaitError(): SessionStoreError {
  return new SessionStoreError(
    "invalid-state",
    "The store was called inside its own transaction, which would wait for itself forever; use the transaction handle.",
  );
}
