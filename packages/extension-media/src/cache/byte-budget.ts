/**
 * A cap on the attachment bytes the process holds at once. Contract: `acquire(n)` resolves when `n` more bytes fit
 * (a request larger than the whole cap waits until nothing else is held, then takes it alone), in arrival order;
 * the returned release is idempotent. `peak` is the most ever held, for the bench.
 */
export class ByteBudget {
  readonly #cap: number;
  #held = 0;
  #peak = 0;
  readonly #waiting: { bytes: number; grant: () => void }[] = [];

  constructor(cap: number) {
    this.#cap = cap;
  }

  get held(): number {
    return this.#held;
  }

  get peak(): number {
    return this.#peak;
  }

  async acquire(requested: number): Promise<() => void> {
    const bytes = Math.min(Math.max(0, requested), this.#cap);
    if (this.#waiting.length > 0 || this.#held + bytes > this.#cap) {
      await new Promise<void>((grant) => this.#waiting.push({ bytes, grant }));
    } else this.#take(bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= bytes;
      this.#grantWaiting();
    };
  }

  #take(bytes: number): void {
    this.#held += bytes;
    this.#peak = Math.max(this.#peak, this.#held);
  }

  #grantWaiting(): void {
    for (;;) {
      const next = this.#waiting[0];
      if (next === undefined || this.#held + next.bytes > this.#cap) return;
      this.#waiting.shift();
      this.#take(next.bytes);
      next.grant();
    }
  }
}
