/** Something a test starts and must shut down: a fake server (`close`), a gateway or channel (`stop`), a client (`destroy`). */
export type Closable = { close(): unknown } | { stop(): unknown } | { destroy(): unknown };

/**
 * Collects what a test starts and shuts it all down, newest first (a gateway before the channel before the fake it
 * talks to), so each test file needs one `afterEach(() => cleanup.closeAll())` instead of a variable and a
 * null check per resource.
 * Contract: `closeAll` tries every tracked item even when one fails, forgets them all, then rejects with the first
 * failure; tracking the same item twice closes it once.
 */
export class TestCleanup {
  #items: Closable[] = [];

  /** Remembers `item` for the next `closeAll` and returns it. */
  track<T extends Closable>(item: T): T {
    if (!this.#items.includes(item)) this.#items.push(item);
    return item;
  }

  /** Shuts every tracked item down, newest first. */
  async closeAll(): Promise<void> {
    const items = this.#items.reverse();
    this.#items = [];
    let failure: { error: unknown } | undefined;
    for (const item of items) {
      try {
        await shut(item);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }
}

function shut(item: Closable): unknown {
  if ("stop" in item) return item.stop();
  if ("close" in item) return item.close();
  return item.destroy();
}
