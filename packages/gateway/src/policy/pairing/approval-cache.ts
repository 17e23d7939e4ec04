import type { PairingScope } from "@chorus/store";

/** How long a kept answer is used: for ever (this process writes every approval), or `forMs` (others may write too). */
export interface ApprovalCacheOptions {
  /** Answers older than this are read again; default: kept until this process changes them. */
  forMs?: number;
  now?: () => number;
  limit?: number;
}

/**
 * What the store said about senders' approvals, so a DM does not cost a store read (a network round trip on
 * PostgreSQL) on every message. The pairing service updates it on every approve and revoke it makes; without `forMs`
 * that is only sound while this process is the one writer of approvals, with it another writer's change is seen
 * within `forMs`.
 * Contract: `get` is undefined for a sender not seen yet (or seen more than `forMs` ago); at most `limit` senders
 * are kept (the oldest is dropped).
 */
export class ApprovalCache {
  readonly #known = new Map<string, { approved: boolean; at: number }>();
  readonly #limit: number;
  readonly #forMs: number | undefined;
  readonly #now: () => number;

  constructor(options: ApprovalCacheOptions = {}) {
    this.#limit = options.limit ?? 10_000;
    this.#forMs = options.forMs;
    this.#now = options.now ?? Date.now;
  }

  get(scope: PairingScope, senderId: string): boolean | undefined {
    const key = cacheKey(scope, senderId);
    const known = this.#known.get(key);
    if (known === undefined) return undefined;
    if (this.#forMs !== undefined && this.#now() - known.at >= this.#forMs) {
      this.#known.delete(key);
      return undefined;
    }
    return known.approved;
  }

  forget(scope: PairingScope, senderId: string): void {
    this.#known.delete(cacheKey(scope, senderId));
  }

  set(scope: PairingScope, senderId: string, approved: boolean): void {
    const key = cacheKey(scope, senderId);
    this.#known.delete(key);
    this.#known.set(key, { approved, at: this.#now() });
    if (this.#known.size > this.#limit) this.#known.delete(this.#known.keys().next().value as string);
  }
}

function cacheKey(scope: PairingScope, senderId: string): string {
  return `${scope.channel}\u0000${scope.accountId}\u0000${senderId}`;
}
