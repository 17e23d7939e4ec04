import { Worker } from "node:worker_threads";
import type { StoreThreadOptions } from "./store-thread-options.js";

/**
 * Run from TypeScript sources (tests, `node --experimental-strip-types`), the worker's `.js` imports name `.ts` files:
 * this resolve hook maps them before the entry loads. The built package needs none of it.
 */
const FROM_SOURCE_BOOTSTRAP = `
const { registerHooks } = require("node:module");
const { workerData } = require("node:worker_threads");
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith("./") || specifier.startsWith("../");
      if (relative && specifier.endsWith(".js")) return nextResolve(specifier.slice(0, -3) + ".ts", context);
      throw error;
    }
  },
});
import(workerData.entry);
`;

/** Starts the thread that owns the SQLite connection. Contract: the worker is not yet listening when this returns. */
export function spawnStoreWorker(options: StoreThreadOptions): Worker {
  const here = import.meta.url;
  if (here.endsWith(".ts")) {
    const entry = new URL("./store-thread-worker.ts", here).href;
    return new Worker(FROM_SOURCE_BOOTSTRAP, { eval: true, workerData: { ...options, entry } });
  }
  return new Worker(new URL("./store-thread-worker.js", here), { workerData: options });
}
