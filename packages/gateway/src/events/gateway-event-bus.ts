import { context } from "@opentelemetry/api";
import type { BusDelivery, GatewayEvent, GatewayEventType } from "./gateway-events.js";
import { SubscriberBuffer } from "./subscriber-buffer.js";

/** Options of one subscription. */
export interface SubscribeOptions {
  /** Events held for this subscriber while it is busy; beyond that the oldest are dropped. Default: the bus's. */
  bufferSize?: number;
  /** Only these event types (dropped notices always come through). */
  types?: readonly GatewayEventType[];
}

/** A live subscription. */
export interface EventSubscription {
  /** Events this subscriber has lost so far. */
  readonly dropped: number;
  unsubscribe(): void;
}

/** A subscription read as an async iterable; `close()` (or breaking out of the loop) ends it. */
export interface EventStream extends AsyncIterable<BusDelivery> {
  readonly dropped: number;
  close(): void;
}

/** Options of the bus. */
export interface GatewayEventBusOptions {
  /** Default per-subscriber buffer; 256. */
  bufferSize?: number;
  /** Called when a subscriber's handler throws or rejects; the subscriber stays subscribed. */
  onSubscriberError?: (error: unknown) => void;
}

type Handler = (delivery: BusDelivery) => void | Promise<void>;

interface Subscriber {
  readonly buffer: SubscriberBuffer;
  readonly types: ReadonlySet<GatewayEventType> | undefined;
  /** Called (once) when something arrives; the reader re-arms it. */
  wake: (() => void) | undefined;
  closed: boolean;
}

/**
 * The gateway's typed event bus. Each subscriber reads from its own bounded buffer at its own pace: a slow one
 * loses events (and is told how many, in order, by a `dropped` notice) while publishing stays O(subscribers),
 * synchronous and never waits for anyone.
 * Contract: publish never throws and never awaits; each subscriber sees events in publish order; a throwing
 * handler is reported to `onSubscriberError` and keeps its subscription.
 */
export class GatewayEventBus {
  readonly #subscribers = new Set<Subscriber>();
  readonly #bufferSize: number;
  readonly #onSubscriberError: (error: unknown) => void;

  constructor(options: GatewayEventBusOptions = {}) {
    this.#bufferSize = options.bufferSize ?? 256;
    this.#onSubscriberError = options.onSubscriberError ?? (() => {});
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** Hands an event to every subscriber's buffer, with the context it is published in (its trace). */
  publish(event: GatewayEvent): void {
    const published = context.active();
    for (const subscriber of this.#subscribers) {
      if (subscriber.types !== undefined && !subscriber.types.has(event.type)) continue;
      subscriber.buffer.push(event, published);
      const wake = subscriber.wake;
      subscriber.wake = undefined;
      wake?.();
    }
  }

  /**
   * Calls `handler` for each delivery, one at a time: an async handler is awaited before the next delivery.
   * Each call runs in the OpenTelemetry context the event was published in, so what it logs carries that trace.
   * Contract: deliveries start after the current synchronous code (never inside `publish`).
   */
  subscribe(handler: Handler, options: SubscribeOptions = {}): EventSubscription {
    const subscriber = this.#add(options);
    const drain = async (): Promise<void> => {
      for (
        let next = subscriber.buffer.take();
        next !== undefined && !subscriber.closed;
        next = subscriber.buffer.take()
      ) {
        try {
          await context.with(subscriber.buffer.takenContext, handler, undefined, next);
        } catch (error) {
          this.#onSubscriberError(error);
        }
      }
      if (!subscriber.closed) subscriber.wake = schedule;
    };
    const schedule = (): void => queueMicrotask(() => void drain());
    subscriber.wake = schedule;
    return {
      get dropped() {
        return subscriber.buffer.totalDropped;
      },
      unsubscribe: () => this.#remove(subscriber),
    };
  }

  /** Reads deliveries with `for await`. Contract: the stream ends when closed, aborted, or left with break/return. */
  stream(options: SubscribeOptions & { signal?: AbortSignal } = {}): EventStream {
    const subscriber = this.#add(options);
    const close = (): void => {
      this.#remove(subscriber);
      const wake = subscriber.wake;
      subscriber.wake = undefined;
      wake?.();
    };
    options.signal?.addEventListener("abort", close, { once: true });
    if (options.signal?.aborted) close();
    const iterator: AsyncIterator<BusDelivery> = {
      next: async () => {
        for (;;) {
          const next = subscriber.buffer.take();
          if (next !== undefined) return { value: next, done: false };
          if (subscriber.closed) return { value: undefined, done: true };
          await new Promise<void>((resolve) => {
            subscriber.wake = resolve;
          });
        }
      },
      return: async () => {
        close();
        return { value: undefined, done: true };
      },
    };
    return {
      get dropped() {
        return subscriber.buffer.totalDropped;
      },
      close,
      [Symbol.asyncIterator]: () => iterator,
    };
  }

  #add(options: SubscribeOptions): Subscriber {
    const size = options.bufferSize ?? this.#bufferSize;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`bufferSize must be a positive integer, got ${size}`);
    const subscriber: Subscriber = {
      buffer: new SubscriberBuffer(size),
      types: options.types === undefined ? undefined : new Set(options.types),
      wake: undefined,
      closed: false,
    };
    this.#subscribers.add(subscriber);
    return subscriber;
  }

  #remove(subscriber: Subscriber): void {
    subscriber.closed = true;
    this.#subscribers.delete(subscriber);
  }
}
