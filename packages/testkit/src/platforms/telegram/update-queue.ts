import type { TgUpdate } from "./telegram-types.js";

interface PollWaiter {
  readonly limit: number;
  readonly resolve: (updates: TgUpdate[]) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * One bot's pending updates, served by `getUpdates`.
 * Contract: updates stay until a later `offset` confirms them (as on Telegram); a long poll
 * is held until an update arrives or its timeout ends; a newer poll ends an older one with `[]`.
 * Push, poll and confirm never scan the whole queue.
 */
export class UpdateQueue {
  #items: TgUpdate[] = [];
  #head = 0;
  #waiter: PollWaiter | undefined;

  get pendingCount(): number {
    return this.#items.length - this.#head;
  }

  push(update: TgUpdate): void {
    this.#items.push(update);
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      clearTimeout(waiter.timer);
      waiter.resolve(this.#take(waiter.limit));
    }
  }

  /** Answers a `getUpdates` call. */
  poll(offset: number | undefined, limit: number, timeoutSeconds: number): Promise<TgUpdate[]> {
    if (offset !== undefined && offset > 0) this.#confirmBelow(offset);
    this.#endWaiter();
    if (this.pendingCount > 0 || timeoutSeconds <= 0) return Promise.resolve(this.#take(limit));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiter = undefined;
        resolve([]);
      }, timeoutSeconds * 1000);
      this.#waiter = { limit, resolve, timer };
    });
  }

  /**
   * Puts the last `count` confirmed updates back in front of the queue, as Telegram serves them again to a bot that
   * died before a later `getUpdates` offset confirmed them. Contract: returns how many were put back.
   */
  unconfirm(count: number): number {
    const back = Math.max(0, Math.min(count, this.#head));
    this.#head -= back;
    return back;
  }

  /** Removes every pending update and returns them (for webhook hand-over or `drop_pending_updates`). */
  drain(): TgUpdate[] {
    const rest = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    return rest;
  }

  close(): void {
    this.#endWaiter();
    this.drain();
  }

  #endWaiter(): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#waiter = undefined;
    clearTimeout(waiter.timer);
    waiter.resolve([]);
  }

  #take(limit: number): TgUpdate[] {
    const end = Math.min(this.#items.length, this.#head + Math.max(1, Math.min(limit, 100)));
    const out: TgUpdate[] = [];
    for (let i = this.#head; i < end; i++) out.push(this.#items[i] as TgUpdate);
    return out;
  }

  #confirmBelow(offset: number): void {
    while (this.#head < this.#items.length && (this.#items[this.#head] as TgUpdate).update_id < offset) {
      this.#head += 1;
    }
    // Compact now and then so confirmed updates do not pile up.
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}
