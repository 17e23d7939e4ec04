import type { PairingScope } from "./pairing-types.js";

/**
 * What the store said about senders' approvals, so a DM does not cost a store read (a network round trip on
 * PostgreSQL) on every message. Only sound while this process is the one writer of approvals: the pairing service
 * updates it on every approve and revoke it makes.
 * Contract: `get` is undefined for a sender not seen yet; at most `limit` senders are kept (the oldest is dropped).
 */
export class ApprovalCache {
  readonly #known = new Map<string, boolean>();
  readonly #limit: number;

  constructor(limit = 10_000) {
    this.#limit = limit;
  }

  get(scope: PairingScope, senderId: string): boolean | undefined {
    return this.#known.get(cacheKey(scope, senderId));
  }

  forget(scope: PairingScope, senderId: string): void {
    this.#known.delete(cacheKey(scope, senderId));
  }

  set(scope: PairingScope, senderId: string, approved: boolean): void {
    const key = cacheKey(scope, senderId);
    this.#known.delete(key);
    this.#known.set(key, approved);
    if (this.#known.size > this.#limit) this.#known.delete(this.#known.keys().next().value as string);
  }
}

function cacheKey(scope: PairingScope, senderId: string): string {
  return `${scope.channel}\u0000${scope.accountId}\u0000${senderId}`;
}
