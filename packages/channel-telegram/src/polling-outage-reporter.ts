import type { Transformer } from "grammy";

/**
 * A grammy API transformer that tells `onError` when `getUpdates` starts failing — once per outage, not once per
 * retry (the runner tries again every second, and stays silent itself so that nothing bypasses the logger).
 * Contract: passes every call and its result or error through unchanged.
 */
export function pollingOutageReporter(onError: ((error: unknown) => void) | undefined): Transformer {
  let failing = false;
  return async (prev, method, payload, signal) => {
    if (method !== "getUpdates") return prev(method, payload, signal);
    try {
      const result = await prev(method, payload, signal);
      if (!result.ok) report(result);
      else failing = false;
      return result;
    } catch (error) {
      if (signal?.aborted !== true) report(error);
      throw error;
    }
  };

  function report(error: unknown): void {
    if (failing) return;
    failing = true;
    onError?.(error);
  }
}
