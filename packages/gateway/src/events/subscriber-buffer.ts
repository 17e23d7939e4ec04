import { type Context, ROOT_CONTEXT } from "@opentelemetry/api";
import type { BusDelivery, GatewayEvent } from "./gateway-events.js";

/**
 * One subscriber's bounded queue. When full, the oldest event is dropped (a late reader wants the present, not
 * the past) and counted; the next read first returns a `dropped` notice for the gap. Each event keeps the
 * OpenTelemetry context it was published in (`takenContext`), so its handler runs — and logs — in the trace of the
 * work that published it, not in whichever context woke the reader.
 */
export class SubscriberBuffer {
  readonly #capacity: number;
  #events: GatewayEvent[] = [];
  /** The publishing context of each event, beside it (no object per event). */
  #contexts: Context[] = [];
  /** The context of the delivery `take` returned last (the root one for a dropped notice). */
  takenContext: Context = ROOT_CONTEXT;
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

  push(event: GatewayEvent, published: Context): void {
    if (this.size >= this.#capacity) {
      this.#head++;
      this.#pendingDropped++;
      this.#totalDropped++;
    }
    this.#events.push(event);
    this.#contexts.push(published);
    // Compact now and then so the array does not grow with the total number of events.
    if (this.#head > this.#capacity) {
      this.#events = this.#events.slice(this.#head);
      this.#contexts = this.#contexts.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The next delivery: a dropped notice if events were lost since the last read, else the oldest event. */
  take(): BusDelivery | undefined {
    if (this.#pendingDropped > 0) {
      const count = this.#pendingDropped;
      this.#pendingDropped = 0;
      this.takenContext = ROOT_CONTEXT;
      return { type: "dropped", count };
    }
    if (this.size === 0) return undefined;
    const event = this.#events[this.#head]!;
    this.takenContext = this.#contexts[this.#head]!;
    this.#head++;
    return event;
  }
}
