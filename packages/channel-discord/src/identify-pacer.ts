/** Discord's spacing of IDENTIFYs within one rate-limit bucket (`shard_id % max_concurrency`). */
export const DISCORD_IDENTIFY_INTERVAL_MS = 5000;

/**
 * Spaces the IDENTIFYs of one bot's shards within this process as Discord asks: shards whose ids are equal modulo
 * `max_concurrency` (one bucket) identify at least `intervalMs` apart; different buckets at once. Shared by the
 * discord.js clients of every shard this process holds (as their `ws.buildIdentifyThrottler`).
 * Contract: `waitForIdentify` resolves when the shard may identify, or rejects when `signal` aborts first.
 */
export class IdentifyPacer {
  readonly #maxConcurrency: number;
  readonly #intervalMs: number;
  readonly #next = new Map<number, number>();

  constructor(maxConcurrency: number, intervalMs = DISCORD_IDENTIFY_INTERVAL_MS) {
    this.#maxConcurrency = Math.max(1, maxConcurrency);
    this.#intervalMs = intervalMs;
  }

  async waitForIdentify(shardId: number, signal?: AbortSignal): Promise<void> {
    const bucket = shardId % this.#maxConcurrency;
    const now = Date.now();
    const at = Math.max(now, this.#next.get(bucket) ?? 0);
    this.#next.set(bucket, at + this.#intervalMs);
    if (at <= now) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, at - now);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }
}
