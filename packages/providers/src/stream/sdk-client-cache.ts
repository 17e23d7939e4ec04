/**
 * SDK clients kept per connection settings, so that calls with the same key, base URL and headers share one client
 * (and its keep-alive connections) instead of building one per call — a client's constructor, header set-up and
 * fetch wiring cost more than a short streamed answer.
 * Contract: `get` returns the cached client for `settings` or makes one; at most `limit` clients are kept (the least
 * recently used is dropped). Settings hold secrets: they stay in memory as a key and are never logged.
 */
export class SdkClientCache<Client> {
  readonly #clients = new Map<string, Client>();
  readonly #limit: number;

  constructor(limit = 16) {
    this.#limit = limit;
  }

  get(settings: readonly unknown[], make: () => Client): Client {
    const key = JSON.stringify(settings);
    const cached = this.#clients.get(key);
    if (cached !== undefined) {
      // Re-insert: Map order is the recency order.
      this.#clients.delete(key);
      this.#clients.set(key, cached);
      return cached;
    }
    const client = make();
    this.#clients.set(key, client);
    if (this.#clients.size > this.#limit) this.#clients.delete(this.#clients.keys().next().value as string);
    return client;
  }
}
