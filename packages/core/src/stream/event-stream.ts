import { keepShape } from "../loop/keep-shape.js";

/**
 * A push-based async iterable of events that also resolves to a final result.
 * Contract: events are delivered in push order to one consumer; `result()` resolves
 * once `end(result)` is called (or with the value extracted from the completing event);
 * pushing after the end is ignored; it never rejects.
 */
export class EventStream<TEvent, TResult> implements AsyncIterable<TEvent> {
  private readonly queue: TEvent[] = [];
  private head = 0;
  private waiting: ((r: IteratorResult<TEvent>) => void) | undefined;
  private done = false;
  private finalResult: TResult | undefined;
  private resolveResult!: (r: TResult) => void;
  private readonly resultPromise: Promise<TResult>;

  constructor(
    private readonly isComplete?: (event: TEvent) => boolean,
    private readonly extractResult?: (event: TEvent) => TResult,
  ) {
    this.resultPromise = new Promise<TResult>((resolve) => {
      this.resolveResult = resolve;
    });
  }

  /** Adds an event; if it is the completing event, ends the stream with its result. */
  push(event: TEvent): void {
    if (this.done) return;
    const waiter = this.waiting;
    if (waiter) {
      this.waiting = undefined;
      waiter({ value: event, done: false });
    } else {
      this.queue.push(event);
    }
    if (this.isComplete?.(event) && this.extractResult) this.end(this.extractResult(event));
  }

  /** Ends the stream. The first call wins. */
  end(result?: TResult): void {
    if (this.done) return;
    this.done = true;
    if (result !== undefined) this.finalResult = result;
    this.resolveResult(this.finalResult as TResult);
    const waiter = this.waiting;
    if (waiter) {
      this.waiting = undefined;
      waiter({ value: undefined, done: true });
    }
  }

  /**
   * Takes the next queued event without waiting; undefined when none is queued. For a single
   * consumer that mixes it with the async iterator (it shares the iterator's position).
   */
  shift(): TEvent | undefined {
    if (this.head >= this.queue.length) return undefined;
    const value = this.queue[this.head++] as TEvent;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
    return value;
  }

  /** Events pushed and not yet read; lets a consumer know whether its next read can resolve at once. */
  get queued(): number {
    return this.queue.length - this.head;
  }

  /** True once the stream has ended. */
  get ended(): boolean {
    return this.done;
  }

  /** Resolves to the final result once the stream ends. */
  result(): Promise<TResult> {
    return this.resultPromise;
  }

  [Symbol.asyncIterator](): AsyncIterator<TEvent> {
    return {
      next: (): Promise<IteratorResult<TEvent>> => {
        if (this.head < this.queue.length) {
          const value = this.queue[this.head++] as TEvent;
          if (this.head > 1024 && this.head * 2 > this.queue.length) {
            this.queue.splice(0, this.head);
            this.head = 0;
          }
          return Promise.resolve({ value, done: false });
        }
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
        });
      },
      return: (): Promise<IteratorResult<TEvent>> => {
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

// Keeps the class's V8 map alive across full GCs between runs (see keepShape).
keepShape(new EventStream());
