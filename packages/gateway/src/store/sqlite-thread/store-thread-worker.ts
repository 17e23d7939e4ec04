// The entry of the SQLite store's thread: it owns the connection and runs the calls another thread sends it, in the
// order they were sent. Replies leave in batches, each only once the call's COMMIT is done.
import { parentPort, workerData } from "node:worker_threads";
import type { SessionStoreOps, SessionStoreTransaction } from "../session-store.js";
import { SessionStoreError } from "../session-store-error.js";
import { SqliteSessionStore } from "../sqlite/sqlite-session-store.js";
import { isStoreOpName } from "./store-op-names.js";
import {
  type StoreThreadMessage,
  type StoreThreadReply,
  type StoreThreadRequest,
  toWireError,
} from "./store-thread-messages.js";
import type { StoreThreadOptions } from "./store-thread-options.js";

/** An open transaction: its handle, how to end it, and the promise that settles after its COMMIT (or rollback). */
interface OpenTransaction {
  /** Set once the store has started the transaction (it may first wait for another one to end). */
  tx: SessionStoreTransaction | undefined;
  end(keep: boolean): void;
  done: Promise<unknown>;
}

/** Ends a transaction the caller rolled back; never reaches the caller. */
const ROLLED_BACK = Symbol("rolled back");

function serve(port: NonNullable<typeof parentPort>, options: StoreThreadOptions): void {
  const post = (message: StoreThreadMessage): void => port.postMessage(message);
  // The store's clock is the caller's: each request carries the time it was made.
  let now = Date.now();
  let store: SqliteSessionStore;
  try {
    store = SqliteSessionStore.open({
      ...options,
      now: () => now,
      onCheckpointError: (message) => post({ kind: "checkpoint-error", message }),
    });
  } catch (error) {
    post({ kind: "fatal", error: toWireError(error) });
    port.close();
    return;
  }

  let replies: StoreThreadReply[] = [];
  const flush = (): void => {
    const batch = replies;
    replies = [];
    post({ kind: "replies", replies: batch });
  };
  const reply = (entry: StoreThreadReply): void => {
    // Calls of one batch settle together after their COMMIT: one message carries all of their results.
    if (replies.push(entry) === 1) setImmediate(flush);
  };
  const settle = (id: number, result: Promise<unknown>): void => {
    result.then(
      (value) => reply({ id, ok: true, value }),
      (error: unknown) => reply({ id, ok: false, error: toWireError(error) }),
    );
  };

  const transactions = new Map<number, OpenTransaction>();
  let closing = false;

  const handle = (request: StoreThreadRequest): void => {
    now = request.at;
    switch (request.kind) {
      case "call": {
        if (!isStoreOpName(request.method)) {
          settle(request.id, Promise.reject(invalidOp(request.method)));
          return;
        }
        const target: SessionStoreOps | undefined = request.tx === undefined ? store : transactions.get(request.tx)?.tx;
        if (target === undefined) {
          settle(request.id, Promise.reject(new SessionStoreError("closed", "This transaction has ended.")));
          return;
        }
        const op = target[request.method] as (...args: unknown[]) => Promise<unknown>;
        settle(request.id, op.apply(target, request.args));
        return;
      }
      case "begin": {
        const open: OpenTransaction = { tx: undefined, end: () => {}, done: Promise.resolve() };
        transactions.set(request.tx, open);
        let started = false;
        open.done = store.transaction(
          (tx) =>
            new Promise((resolve, reject) => {
              started = true;
              open.tx = tx;
              // Held open until the caller's `fn` has finished and says whether to keep its writes.
              open.end = (keep) => (keep ? resolve(undefined) : reject(ROLLED_BACK));
              reply({ id: request.id, ok: true, value: undefined });
            }),
        );
        open.done.catch((error: unknown) => {
          if (started) return;
          transactions.delete(request.tx);
          reply({ id: request.id, ok: false, error: toWireError(error) });
        });
        return;
      }
      case "end": {
        const open = transactions.get(request.tx);
        transactions.delete(request.tx);
        if (open === undefined) {
          settle(request.id, Promise.reject(new SessionStoreError("closed", "This transaction has ended.")));
          return;
        }
        open.end(request.keep);
        settle(
          request.id,
          open.done.then(
            () => undefined,
            (error: unknown) => {
              if (error !== ROLLED_BACK) throw error;
            },
          ),
        );
        return;
      }
      case "close": {
        if (closing) {
          settle(request.id, Promise.resolve());
          return;
        }
        closing = true;
        store.close().then(
          () => {
            reply({ id: request.id, ok: true, value: undefined });
            // Closing the port ends this thread once the last replies are out.
            setImmediate(() => {
              if (replies.length > 0) flush();
              port.close();
            });
          },
          (error: unknown) => reply({ id: request.id, ok: false, error: toWireError(error) }),
        );
        return;
      }
    }
  };

  port.on("message", (batch: StoreThreadRequest[]) => {
    for (const request of batch) handle(request);
  });
}

function invalidOp(method: string): SessionStoreError {
  return new SessionStoreError("invalid-input", `The session store has no operation ${JSON.stringify(method)}.`);
}

if (parentPort !== null) serve(parentPort, workerData as StoreThreadOptions);
