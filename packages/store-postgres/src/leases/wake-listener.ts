import pg, { type ClientConfig } from "pg";

/**
 * `LISTEN` on a connection of its own (a pooled one would be handed to other statements): calls `onPayload` for each
 * notification on `channel`. When the connection breaks it reconnects every `retryMs` and calls `onReconnect` (a
 * notification sent meanwhile is lost: the caller sweeps). Contract: `start` rejects if the first connection fails;
 * `stop` is idempotent.
 */
export class WakeListener {
  readonly #config: ClientConfig;
  readonly #channel: string;
  readonly #onPayload: (payload: string) => void;
  readonly #onReconnect: () => void;
  readonly #onWarning: (message: string) => void;
  readonly #retryMs: number;
  readonly #lostWarning: string;
  #client: pg.Client | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(options: {
    config: ClientConfig;
    channel: string;
    onPayload: (payload: string) => void;
    onReconnect: () => void;
    onWarning: (message: string) => void;
    retryMs?: number;
    /** The warning when the connection breaks; default one about wake-ups. */
    lostWarning?: string;
  }) {
    this.#config = options.config;
    this.#channel = options.channel;
    this.#onPayload = options.onPayload;
    this.#onReconnect = options.onReconnect;
    this.#onWarning = options.onWarning;
    this.#retryMs = options.retryMs ?? 1000;
    this.#lostWarning =
      options.lostWarning ?? "Lost the connection that listens for wake-ups; reconnecting (the sweep covers the gap).";
  }

  async start(): Promise<void> {
    await this.#connect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    const client = new pg.Client(this.#config);
    client.on("error", () => {}); // reported through "end"; an unhandled "error" would crash the process
    client.on("notification", (message) => {
      if (message.channel === this.#channel && message.payload !== undefined) this.#onPayload(message.payload);
    });
    await client.connect();
    await client.query(`LISTEN ${this.#channel}`);
    if (this.#stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    client.on("end", () => {
      if (this.#stopped || this.#client !== client) return;
      this.#client = undefined;
      this.#onWarning(this.#lostWarning);
      this.#scheduleRetry();
    });
  }

  #scheduleRetry(): void {
    this.#retry = setTimeout(async () => {
      if (this.#stopped) return;
      try {
        await this.#connect();
        this.#onReconnect();
      } catch {
        this.#scheduleRetry();
      }
    }, this.#retryMs);
    this.#retry.unref?.();
  }
}
