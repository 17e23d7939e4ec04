import { createClient } from "redis";

/**
 * Deletes every key under `prefix` in the Redis at `url` (what one Chat SDK bot run wrote).
 * Contract: resolves with how many keys were deleted; rejects with the Redis error.
 */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  const client = createClient({ url });
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
