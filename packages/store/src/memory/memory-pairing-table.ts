import type { PairingInsertResult, PairingRequest, PairingScope } from "../pairing-types.js";
import { compareText, requestKey, senderKey } from "./memory-rows.js";
import type { UndoJournal } from "./undo-journal.js";

/**
 * The in-memory pairing tables: pending requests and approved senders, each per channel account. Every write goes
 * through the store's journal, so it rolls back with the transaction it was made in.
 * The methods are `SessionStoreCore`'s pairing operations of the same names.
 */
export class MemoryPairingTable {
  readonly #journal: UndoJournal;
  /** Pending pairing requests by [channel, account, code]. */
  readonly #requests = new Map<string, PairingRequest>();
  /** Approved senders by [channel, account, sender] → when approved. */
  readonly #approved = new Map<string, number>();

  constructor(journal: UndoJournal) {
    this.#journal = journal;
  }

  insertPending(request: PairingRequest, limits: { maxPending: number; now: number }): PairingInsertResult {
    const inScope = this.#requestsIn(request.scope);
    for (const stale of inScope.filter((r) => r.expiresAt <= limits.now)) {
      this.#journal.remove(this.#requests, requestKey(stale.scope, stale.code));
    }
    const live = inScope.filter((r) => r.expiresAt > limits.now);
    const existing = live.find((r) => r.senderId === request.senderId);
    if (existing !== undefined) return { status: "exists", request: existing };
    if (live.length >= limits.maxPending) return { status: "full" };
    if (live.some((r) => r.code === request.code)) return { status: "code-taken" };
    const stored: PairingRequest = Object.freeze({ ...request, scope: Object.freeze({ ...request.scope }) });
    this.#journal.put(this.#requests, requestKey(request.scope, request.code), stored);
    return { status: "inserted" };
  }

  getPending(scope: PairingScope, code: string): PairingRequest | undefined {
    return this.#requests.get(requestKey(scope, code));
  }

  listPending(scope: PairingScope, now: number): PairingRequest[] {
    return this.#requestsIn(scope)
      .filter((r) => r.expiresAt > now)
      .sort((a, b) => a.createdAt - b.createdAt || compareText(a.code, b.code));
  }

  deletePending(scope: PairingScope, code: string): void {
    this.#journal.remove(this.#requests, requestKey(scope, code));
  }

  addApproved(scope: PairingScope, senderId: string, approvedAt: number): void {
    this.#journal.put(this.#approved, senderKey(scope, senderId), approvedAt);
  }

  isApproved(scope: PairingScope, senderId: string): boolean {
    return this.#approved.has(senderKey(scope, senderId));
  }

  removeApproved(scope: PairingScope, senderId: string): boolean {
    return this.#journal.remove(this.#approved, senderKey(scope, senderId));
  }

  #requestsIn(scope: PairingScope): PairingRequest[] {
    return [...this.#requests.values()].filter(
      (r) => r.scope.channel === scope.channel && r.scope.accountId === scope.accountId,
    );
  }
}
