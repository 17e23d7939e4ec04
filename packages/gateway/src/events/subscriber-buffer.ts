import type { BusDelivery, GatewayEvent } from "./gateway-events.js";

/**
 * One subscriber's bounded queue. When full, the oldest event is dropped (a late reader wants the present, not
 * the past) and counted; the next read first returns a `dropped` notice for the gap.
 */
export class SubscriberBuffer {
  readonly #capacity: number;
  #events: GatewayEvent[] = [];
  #head = 0;
  #pendingDropped = 0;
  #totalDropped = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Events lost so far. */
  get totalDropped(): number {
    return this.#totalDropped;
  }

  get size(): number {
    return this.#events.length - this.#head;
  }

  push(event: GatewayEvent): void {
    if (this.size >= this.#capacity) {
      this.#head++;
      this.#pendingDropped++;
      this.#totalDropped++;
    }
    this.#events.push(event);
    // Compact now and then so the array does not grow with the total number of events.
    if (this.#head > this.#capacity) {
      this.#events = this.#events.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The next delivery: a dropped notice if events were lost since the last read, else the oldest event. */
  take(): BusDelivery | undefined {
    if (this.#pendingDropped > 0) {
      const count = this.#pendingDropped;
      this.#pendingDropped = 0;
      return { type: "dropped", count };
    }
    if (this.size === 0) return undefined;
    const event = this.#events[this.#head]!;
    this.#head++;
    return event;
  }
}
