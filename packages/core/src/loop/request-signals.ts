/**
 * Reuses the AbortControllers whose signals go to StreamFns: a controller that was never aborted
 * goes back to a small free list when its run ends, so a run usually creates none (creating one
 * costs more than the rest of a zero-latency turn). Contract: a StreamFn must remove the listeners
 * it adds to `options.signal` when its call ends (every well-behaved client does).
 */
const free: AbortController[] = [];
const MAX_FREE = 64;

/** A fresh or recycled controller that is not aborted. */
export function acquireRequestController(): AbortController {
  return free.pop() ?? new AbortController();
}

/** Gives a controller back; aborted ones are dropped. */
export function releaseRequestController(controller: AbortController | undefined): void {
  if (controller && !controller.signal.aborted && free.length < MAX_FREE) free.push(controller);
}

/** A signal that never aborts, for runs started without one. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
