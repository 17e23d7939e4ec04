import type { InboundMessage } from "@chorus/gateway";

interface Waiter {
  readonly predicate: (message: InboundMessage) => boolean;
  readonly resolve: (message: InboundMessage) => void;
}

/**
 * A sink for channel tests: keeps every inbound message and lets a test wait for one.
 * Waiting is bounded by the test's own timeout.
 */
export class InboundCollector {
  readonly messages: InboundMessage[] = [];
  #waiters: Waiter[] = [];

  readonly sink = (message: InboundMessage): void => {
    this.messages.push(message);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!waiter.predicate(message)) return true;
      waiter.resolve(message);
      return false;
    });
  };

  /** The first message (already received or future) whose text is `text`. */
  byText(text: string): Promise<InboundMessage> {
    return this.waitFor((message) => message.text === text);
  }

  waitFor(predicate: (message: InboundMessage) => boolean): Promise<InboundMessage> {
    const found = this.messages.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ predicate, resolve }));
  }

  /** Resolves once `count` messages in all have arrived. */
  waitForCount(count: number): Promise<void> {
    let seen = this.messages.length;
    if (seen >= count) return Promise.resolve();
    return new Promise((resolve) =>
      this.#waiters.push({
        predicate: () => ++seen >= count,
        resolve: () => resolve(),
      }),
    );
  }
}
