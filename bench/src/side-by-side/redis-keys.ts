import { createClient } from "redis";

/**
 * Deletes every key under `prefix` in the Redis at `url` (what one Chat SDK bot run wrote).
 * Contract: resolves with how many keys were deleted; rejects with the Redis error.
 */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  const client = createClient({ url, socket: { connectTimeout: 3_000, reconnectStrategy: false } });
  client.on("error", () => {});
  await client.connect();
  try {
    let deleted = 0;
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
      if (keys.length > 0) deleted += await client.del(keys);
    }
    return deleted;
  } finally {
    await client.close();
  }
}

/**
 * Checks that Redis answers at `url` within 3 s. Contract: rejects with a message naming the URL and what needs it.
 */
export async function assertRedisReachable(url: string, neededBy: string): Promise<void> {
  const client = createClient({ url, socket: { connectTimeout: 3_000, reconnectStrategy: false } });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(
      `Redis is not reachable at ${url} (${String(error)}); ${neededBy} need it — start Redis, set BENCH_REDIS_URL, or pick other systems with --system`,
    );
  } finally {
    if (client.isOpen) await client.close();
  }
}
