/**
 * Forces a full garbage collection. Contract: throws when node was not started with
 * --expose-gc, because memory numbers without it would be noise.
 */
export function forceGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run node with --expose-gc (the bench script does)");
  // Two passes: the first may only queue finalizers that free more on the second.
  gc();
  gc();
}

/** True when a full collection can be forced. */
export function canForceGc(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === "function";
}
