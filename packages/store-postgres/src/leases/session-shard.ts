import { createHash } from "node:crypto";

/** How many shards the sessions fall into (fixed by migration 0002: one lease row each). */
export const SHARD_COUNT = 64;

/**
 * The shard of a session key: the first 32 bits of its MD5, modulo 64. Contract: the same number as the database's
 * `chorus_shard(key)`, which the fenced statements use; stable across processes, versions and platforms.
 */
export function sessionShard(sessionKey: string): number {
  const digest = createHash("md5").update(sessionKey).digest();
  return digest.readUInt32BE(0) % SHARD_COUNT;
}
