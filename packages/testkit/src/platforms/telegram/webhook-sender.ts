import type { Delivery } from "../shared/delivery.js";
import type { TgUpdate } from "./telegram-types.js";

/** Where and how the fake posts updates once `setWebhook` was called. */
export interface WebhookTarget {
  readonly url: string;
  readonly secretToken: string | undefined;
  readonly maxConnections: number;
}

/** How often and how far apart the fake posts an unacknowledged webhook update again. */
export interface WebhookRetry {
  readonly attempts: number;
  readonly delayMs: number;
}

interface Outgoing {
  readonly update: TgUpdate;
  readonly settle: (delivery: Delivery<TgUpdate>) => void;
}

/**
 * Posts updates to a bot's webhook with `X-Telegram-Bot-Api-Secret-Token`, at most
 * `maxConnections` at a time, in queue order; an update not acknowledged is posted again per `retry`.
 * Contract: every update settles exactly once, with the HTTP status the bot last answered.
 */
export class WebhookSender {
  readonly #queue: Outgoing[] = [];
  #queueHead = 0;
  #inFlight = 0;
  readonly #abort = new AbortController();

  constructor(
    readonly target: WebhookTarget,
    readonly retry: WebhookRetry = { attempts: 0, delayMs: 0 },
  ) {}

  send(update: TgUpdate, settle: (delivery: Delivery<TgUpdate>) => void): void {
    this.#queue.push({ update, settle });
    this.#pump();
  }

  close(): void {
    this.#abort.abort();
    for (let i = this.#queueHead; i < this.#queue.length; i++) {
      const item = this.#queue[i] as Outgoing;
      item.settle({ ok: false, item: item.update, reason: "webhook removed or fake closed" });
    }
    this.#queue.length = 0;
    this.#queueHead = 0;
  }

  #pump(): void {
    while (this.#inFlight < this.target.maxConnections && this.#queueHead < this.#queue.length) {
      const next = this.#queue[this.#queueHead] as Outgoing;
      this.#queueHead += 1;
      this.#inFlight += 1;
      void this.#post(next).finally(() => {
        this.#inFlight -= 1;
        this.#pump();
      });
    }
    if (this.#queueHead > 1024 && this.#queueHead * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#queueHead);
      this.#queueHead = 0;
    }
  }

  async #post({ update, settle }: Outgoing): Promise<void> {
    let delivery = await this.#postOnce(update);
    for (let retry = 1; !delivery.ok && retry <= this.retry.attempts && !this.#abort.signal.aborted; retry++) {
      await new Promise((resolve) => setTimeout(resolve, this.retry.delayMs));
      if (this.#abort.signal.aborted) break;
      delivery = await this.#postOnce(update);
    }
    settle(delivery);
  }

  async #postOnce(update: TgUpdate): Promise<Delivery<TgUpdate>> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.target.secretToken !== undefined) headers["x-telegram-bot-api-secret-token"] = this.target.secretToken;
    try {
      const response = await fetch(this.target.url, {
        method: "POST",
        headers,
        body: JSON.stringify(update),
        signal: this.#abort.signal,
      });
      await response.arrayBuffer();
      if (response.ok) return { ok: true, item: update, status: response.status };
      return { ok: false, item: update, status: response.status, reason: `webhook answered ${response.status}` };
    } catch (error) {
      return { ok: false, item: update, reason: `webhook request failed: ${String(error)}` };
    }
  }
}
