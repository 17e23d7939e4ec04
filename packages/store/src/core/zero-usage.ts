import type { Usage } from "@chorus/core";

/**
 * A zeroed usage record for a new run. Same as `emptyUsage` of @chorus/core; kept here so the store has no runtime
 * import and loads on its own (crash tests run it in a bare child process). Contract: a fresh object each call.
 */
export function zeroUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}
