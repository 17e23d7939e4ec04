import { abortableSleep } from "./abortable-sleep.js";

/** Discord's spacing of IDENTIFYs within one rate-limit bucket (`shard_id % max_concurrency`). */
export const DISCORD_IDENTIFY_INTERVAL_MS = 5000;

/** Takes the next cluster-wide slot of an IDENTIFY bucket; resolves with the ms to wait for it (`IngressLeases.pace`). */
export type IdentifySlot = (bucket: number, intervalMs: number) => Promise<number>;

/**
 * Spaces the IDENTIFYs of one bot's shards as Discord asks: shards whose ids are equal modulo `max_concurrency` (one
 * bucket) identify at least `intervalMs` apart; different buckets at once. Within this process by itself (shared by
 * every shard it holds: taken before a shard's first IDENTIFY, and by its discord.js client's IDENTIFY throttler for
 * later ones), across a cluster through `slot` (the ingress leases' `pace`).
 * Contract: `waitForIdentify` resolves when the shard may identify, or rejects when `signal` aborts first.
 */
export class IdentifyPacer {
  readonly #maxConcurrency: number;
  readonly #intervalMs: number;
  readonly #next = new Map<number, number>();

  readonly #slot: IdentifySlot | undefined;

  constructor(maxConcurrency: number, intervalMs = DISCORD_IDENTIFY_INTERVAL_MS, slot?: IdentifySlot) {
    this.#maxConcurrency = Math.max(1, maxConcurrency);
    this.#intervalMs = intervalMs;
    this.#slot = slot;
  }

  async waitForIdentify(shardId: number, signal?: AbortSignal): Promise<void> {
    const bucket = shardId % this.#maxConcurrency;
    const now = Date.now();
    const at = Math.max(now, this.#next.get(bucket) ?? 0);
    this.#next.set(bucket, at + this.#intervalMs);
    if (at > now) await abortableSleep(at - now, signal);
    const clusterWait = (await this.#slot?.(bucket, this.#intervalMs)) ?? 0;
    if (clusterWait > 0) await abortableSleep(clusterWait, signal);
  }
}
