/**
 * Lets one transaction at a time hold the store while other calls wait their turn.
 * Embedded stores answer synchronously, so without this a call made while a transaction awaits
 * would land inside that transaction (and be rolled back with it).
 */
export class TransactionGate {
  private held: Promise<void> | undefined;

  /** True while a transaction holds the store. */
  get busy(): boolean {
    return this.held !== undefined;
  }

  /** Resolves once no transaction holds the store (re-check `busy`: another may have started). */
  idle(): Promise<void> {
    return this.held ?? Promise.resolve();
  }

  /** Holds the store until the returned function is called. Contract: only call when not `busy`. */
  hold(): () => void {
    let release: () => void = () => {};
    this.held = new Promise<void>((resolve) => {
      release = resolve;
    });
    return () => {
      this.held = undefined;
      release();
    };
  }
}
