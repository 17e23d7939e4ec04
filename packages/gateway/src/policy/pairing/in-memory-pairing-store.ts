import type { PairingInsertResult, PairingRequest, PairingScope, PairingStore } from "@chorus/store";

function scopeKey(scope: PairingScope): string {
  return `${scope.channel}\u0000${scope.accountId}`;
}

/**
 * PairingStore in memory, for tests and single-process setups without persistence.
 * Contract: implements PairingStore; expired requests are purged whenever the scope is written.
 */
export class InMemoryPairingStore implements PairingStore {
  readonly #pending = new Map<string, Map<string, PairingRequest>>();
  readonly #approved = new Map<string, Map<string, number>>();

  async insertPending(
    request: PairingRequest,
    limits: { maxPending: number; now: number },
  ): Promise<PairingInsertResult> {
    const requests = this.#scopePending(request.scope);
    for (const [code, existing] of requests) if (existing.expiresAt <= limits.now) requests.delete(code);
    const existing = [...requests.values()].find((candidate) => candidate.senderId === request.senderId);
    if (existing !== undefined) return { status: "exists", request: existing };
    if (requests.size >= limits.maxPending) return { status: "full" };
    if (requests.has(request.code)) return { status: "code-taken" };
    requests.set(request.code, request);
    return { status: "inserted" };
  }

  async getPending(scope: PairingScope, code: string): Promise<PairingRequest | undefined> {
    return this.#pending.get(scopeKey(scope))?.get(code);
  }

  async listPending(scope: PairingScope, now: number): Promise<PairingRequest[]> {
    return [...(this.#pending.get(scopeKey(scope))?.values() ?? [])]
      .filter((request) => request.expiresAt > now)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  async deletePending(scope: PairingScope, code: string): Promise<void> {
    this.#pending.get(scopeKey(scope))?.delete(code);
  }

  async addApproved(scope: PairingScope, senderId: string, approvedAt: number): Promise<void> {
    const key = scopeKey(scope);
    const approved = this.#approved.get(key) ?? new Map<string, number>();
    approved.set(senderId, approvedAt);
    this.#approved.set(key, approved);
  }

  async isApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    return this.#approved.get(scopeKey(scope))?.has(senderId) ?? false;
  }

  async removeApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    return this.#approved.get(scopeKey(scope))?.delete(senderId) ?? false;
  }

  #scopePending(scope: PairingScope): Map<string, PairingRequest> {
    const key = scopeKey(scope);
    const existing = this.#pending.get(key);
    if (existing !== undefined) return existing;
    const created = new Map<string, PairingRequest>();
    this.#pending.set(key, created);
    return created;
  }
}
