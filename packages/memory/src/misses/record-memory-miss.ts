import type { NewMemoryMiss } from "./memory-miss.js";
import { countMemoryMiss } from "./memory-miss-metric.js";

/** Where misses are kept: every `MemoryStore` is one. */
export interface MemoryMissLog {
  recordMiss(miss: NewMemoryMiss): Promise<void>;
}

/**
 * Counts a miss and writes it to `log` fire-and-forget: the write starts after the caller's current work (a
 * synchronous SQLite write included), so a recall's return path never waits for it. Contract: the promise never
 * rejects — a failed write is handed to `onFailure` (log it) — and is only for whoever waits for background work.
 * @example track(recordMemoryMiss(store, { ...miss, sessionKey, agentId, at: Date.now() }, (e) => logger.warn(e)));
 */
export function recordMemoryMiss(
  log: MemoryMissLog,
  miss: NewMemoryMiss,
  onFailure: (error: unknown) => void,
): Promise<void> {
  countMemoryMiss(miss.reason, miss.strategy);
  return new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => log.recordMiss(miss))
    .catch((error: unknown) => {
      try {
        onFailure(error);
      } catch {
        // A failing logger must not turn a lost miss into an unhandled rejection.
      }
    });
}
