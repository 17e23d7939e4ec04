/** Something waiting for a turn slot: admitted once, with a release function it must call when its turn ends. */
export interface AdmissionCandidate {
  admit(release: () => void): void;
}

/**
 * The global cap on concurrent turns with fair, round-robin admission across sessions: each session waits in one
 * FIFO line with at most one place, so a session with many queued messages re-enters at the back after each turn
 * and cannot starve the others.
 * Contract: never more than `maxConcurrent` admitted and unreleased; admission order is request order;
 * a release is counted once however often it is called.
 */
export class FairAdmission {
  readonly #maxConcurrent: number;
  readonly #waiting: AdmissionCandidate[] = [];
  #head = 0;
  #active = 0;

  constructor(maxConcurrent = 8) {
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
      throw new RangeError(`maxConcurrent must be a positive integer, got ${maxConcurrent}`);
    }
    this.#maxConcurrent = maxConcurrent;
  }

  /** Turns running now. */
  get active(): number {
    return this.#active;
  }

  /** Sessions waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length - this.#head;
  }

  /** Queues a candidate; it is admitted at once when a slot is free. Contract: request each candidate once per turn. */
  request(candidate: AdmissionCandidate): void {
    this.#waiting.push(candidate);
    this.#pump();
  }

  #pump(): void {
    while (this.#active < this.#maxConcurrent && this.#head < this.#waiting.length) {
      const next = this.#waiting[this.#head++]!;
      if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
        this.#waiting.splice(0, this.#head);
        this.#head = 0;
      }
      this.#active++;
      let released = false;
      next.admit(() => {
        if (released) return;
        released = true;
        this.#active--;
        this.#pump();
      });
    }
  }
}
