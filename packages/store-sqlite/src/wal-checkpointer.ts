import { Worker } from "node:worker_threads";

/**
 * The worker's code, inline so it needs no file of its own next to the built or source module.
 * It opens its own connection to the same file and folds the WAL back into the database every interval.
 */
const CHECKPOINT_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { DatabaseSync } = require("node:sqlite");
const db = new DatabaseSync(workerData.path, { timeout: workerData.busyTimeoutMs });
const checkpoint = () => {
  try {
    db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Runs SQLite's WAL checkpoints on a worker thread. A checkpoint copies the WAL into the database and fsyncs it:
 * tens of milliseconds on a busy disk. Left to SQLite's auto-checkpoint it runs inside whichever commit crosses
 * the threshold, blocking the event loop; here commits only append to the WAL.
 * Contract: `stop` resolves once the worker has closed its connection; checkpoint errors go to `onError`, never throw.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(options: {
    path: string;
    intervalMs: number;
    busyTimeoutMs: number;
    onError: (message: string) => void;
  }) {
    this.worker = new Worker(CHECKPOINT_WORKER_SOURCE, {
      eval: true,
      workerData: { path: options.path, intervalMs: options.intervalMs, busyTimeoutMs: options.busyTimeoutMs },
    });
    this.worker.on("message", (message: { error?: string }) => {
      if (message.error !== undefined) options.onError(message.error);
    });
    this.worker.on("error", (error) => options.onError(String(error)));
    this.exited = new Promise((resolve) => this.worker.once("exit", () => resolve()));
    // The checkpointer must never keep a process alive that has nothing else to do.
    this.worker.unref();
  }

  /** Stops the worker. Contract: idempotent. */
  stop(): Promise<void> {
    // Held while stopping, so the process waits for the connection to close instead of exiting under it.
    this.worker.ref();
    this.worker.postMessage("stop");
    return this.exited;
  }
}
