import { sessionShard } from "../leases/session-shard.js";

/** Something queued for a batch, with the session whose rows (and shard lease) its statement locks, if known. */
export interface LockOrdered {
  readonly sessionKey?: string | undefined;
}

/**
 * The batch's statements in the order they take their locks: by shard, then session key; statements without a
 * session last. Why: a batch holds every lock until its COMMIT, so two transactions taking rows in opposite orders
 * would deadlock (and PostgreSQL would only notice after `deadlock_timeout`, 1 s). Every batch, of this instance or
 * another, and every statement that locks several shard leases (the heartbeat, a release) lock in this order.
 * Contract: stable — statements of one session keep the order they were called in.
 */
export function inLockOrder<T extends LockOrdered>(items: readonly T[]): T[] {
  const keyed = items.map((item, index) => ({
    item,
    index,
    shard: item.sessionKey === undefined ? Number.POSITIVE_INFINITY : sessionShard(item.sessionKey),
  }));
  keyed.sort((a, b) => {
    if (a.shard !== b.shard) return a.shard - b.shard;
    const ka = a.item.sessionKey ?? "";
    const kb = b.item.sessionKey ?? "";
    if (ka !== kb) return ka < kb ? -1 : 1;
    return a.index - b.index;
  });
  return keyed.map((entry) => entry.item);
}
