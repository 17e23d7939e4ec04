import { createHash } from "node:crypto";

/** How many shards the sessions fall into (fixed by migration 0002: one lease row each). */
export const SHARD_COUNT = 64;

/** The sub-agent prefixes of a session key (`agent:<agent>:sub:<depth>:<childId>:`, nested ones included). */
const SUBAGENT_PREFIXES = /^(agent:[^:]+:sub:[0-9]+:[^:]+:)+/;

/**
 * The shard of a session key: the first 32 bits of the MD5 of its root session's key, modulo 64 — a sub-agent's
 * session falls into its root's shard (its runs live where the root's turns run). Contract: the same number as the
 * database's `chorus_shard(key)` (migration 0005), which the fenced statements use; stable across processes and
 * platforms.
 */
export function sessionShard(sessionKey: string): number {
  const digest = createHash("md5").update(sessionKey.replace(SUBAGENT_PREFIXES, "")).digest();
  return digest.readUInt32BE(0) % SHARD_COUNT;
}
