/**
 * Synchronous fan-out to listeners (seed 000): delivered in registration order; a listener that
 * throws is removed and the others still get the event; (un)subscribing during a dispatch takes
 * effect from the next event (copy-on-write, so dispatch never allocates).
 */
export class SubscriberList<T> {
  private listeners: readonly ((value: T) => void)[] = [];

  /** `onError` hears about each listener that threw (and was removed). */
  constructor(private readonly onError?: (error: unknown) => void) {}

  /** Adds a listener. Contract: returns an idempotent unsubscribe function. */
  add(listener: (value: T) => void): () => void {
    const entry = (value: T): void => listener(value);
    this.listeners = [...this.listeners, entry];
    return () => this.remove(entry);
  }

  /** Delivers `value` to every listener registered when the dispatch began. */
  dispatch(value: T): void {
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) {
      const listener = listeners[i] as (value: T) => void;
      try {
        listener(value);
      } catch (error) {
        this.remove(listener);
        this.onError?.(error);
      }
    }
  }

  /** Number of listeners. */
  get size(): number {
    return this.listeners.length;
  }

  private remove(entry: (value: T) => void): void {
    const index = this.listeners.indexOf(entry);
    if (index < 0) return;
    const next = this.listeners.slice();
    next.splice(index, 1);
    this.listeners = next;
  }
}
