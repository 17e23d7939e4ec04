import type { PairingRequest, PairingScope, PairingStore } from "@chorus/store";
import { ApprovalCache } from "./approval-cache.js";
import { generatePairingCode, normalizePairingCode } from "./pairing-code.js";

/** Options of the pairing service. */
export interface PairingOptions {
  /** How long a code stays valid; default one hour. */
  ttlMs?: number;
  /** Live requests allowed per channel account; default 3. */
  maxPending?: number;
  now?: () => number;
  generateCode?: () => string;
  /**
   * Remember approvals in memory instead of reading the store for every DM. `true` only when this service is the one
   * writer of the store's approvals (one gateway per store); `{ forMs }` when others write them too (a cluster): an
   * approval or revoke made elsewhere is then seen within `forMs` (here at once). Default false.
   */
  cacheApprovals?: boolean | { forMs: number };
}

/** The outcome of an unknown sender asking to pair. */
export type PairingRequestOutcome =
  | { readonly status: "created"; readonly code: string; readonly expiresAt: number }
  /** The sender already has a live code; it is repeated, not replaced. */
  | { readonly status: "pending"; readonly code: string; readonly expiresAt: number }
  | { readonly status: "too-many-pending" }
  | { readonly status: "already-approved" };

/** The outcome of approving or denying a code. */
export type PairingDecisionOutcome =
  | { readonly ok: true; readonly request: PairingRequest }
  | { readonly ok: false; readonly reason: "unknown-code" | "expired" };

const MAX_CODE_ATTEMPTS = 8;

/**
 * DM pairing: an unknown sender gets an 8-character code; an admin approves or denies it (`/pair approve <code>`).
 * Codes expire after an hour; at most three are pending per channel account.
 * Contract: store-agnostic (all state is in the PairingStore); codes are matched ignoring case, spaces and dashes.
 */
export class PairingService {
  readonly #store: PairingStore;
  readonly #ttlMs: number;
  readonly #maxPending: number;
  readonly #now: () => number;
  readonly #generateCode: () => string;
  readonly #cache: ApprovalCache | undefined;
  /**
   * Per scope, whether the store had any approved sender (kept like `#cache`, under the sender id ""): a sender of a
   * scope with none is known unapproved without a read of their own. Only with a cache and a store that can tell.
   */
  readonly #scopes: ApprovalCache | undefined;
  /** Approvals this service made: an answer about a scope read while one was made is not kept. */
  #approvals = 0;

  constructor(store: PairingStore, options: PairingOptions = {}) {
    this.#store = store;
    this.#ttlMs = options.ttlMs ?? 60 * 60 * 1000;
    this.#maxPending = options.maxPending ?? 3;
    this.#now = options.now ?? Date.now;
    this.#generateCode = options.generateCode ?? generatePairingCode;
    const cache = options.cacheApprovals ?? false;
    this.#cache =
      cache === false
        ? undefined
        : new ApprovalCache({ now: this.#now, ...(cache === true ? {} : { forMs: cache.forMs }) });
    this.#scopes =
      cache === false || store.hasApproved === undefined
        ? undefined
        : new ApprovalCache({ now: this.#now, ...(cache === true ? {} : { forMs: cache.forMs }) });
  }

  /** Issues (or repeats) a code for an unknown DM sender. */
  async request(scope: PairingScope, sender: { id: string; name: string }): Promise<PairingRequestOutcome> {
    if (await this.isApproved(scope, sender.id)) return { status: "already-approved" };
    const now = this.#now();
    for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
      const request: PairingRequest = {
        scope,
        code: normalizePairingCode(this.#generateCode()),
        senderId: sender.id,
        senderName: sender.name,
        createdAt: now,
        expiresAt: now + this.#ttlMs,
      };
      const result = await this.#store.insertPending(request, { maxPending: this.#maxPending, now });
      switch (result.status) {
        case "inserted":
          return { status: "created", code: request.code, expiresAt: request.expiresAt };
        case "exists":
          return { status: "pending", code: result.request.code, expiresAt: result.request.expiresAt };
        case "full":
          return { status: "too-many-pending" };
        case "code-taken":
          continue;
      }
    }
    throw new Error(`could not find a free pairing code after ${MAX_CODE_ATTEMPTS} attempts`);
  }

  /** Approves a code: its sender may DM the bot from now on. */
  async approve(scope: PairingScope, typedCode: string): Promise<PairingDecisionOutcome> {
    const outcome = await this.#take(scope, typedCode);
    if (outcome.ok) {
      this.#approvals++;
      await this.#store.addApproved(scope, outcome.request.senderId, this.#now());
      this.#cache?.set(scope, outcome.request.senderId, true);
      this.#scopes?.set(scope, "", true);
    }
    return outcome;
  }

  /** Denies a code: the request is dropped (the sender may ask again later). */
  async deny(scope: PairingScope, typedCode: string): Promise<PairingDecisionOutcome> {
    return this.#take(scope, typedCode);
  }

  /** Live requests, oldest first. */
  async list(scope: PairingScope): Promise<PairingRequest[]> {
    return this.#store.listPending(scope, this.#now());
  }

  /** Whether a sender was approved on this channel account. */
  async isApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    const cached = this.#cache?.get(scope, senderId);
    if (cached !== undefined) return cached;
    if (!(await this.#anyApprovedIn(scope))) return false;
    const approved = await this.#store.isApproved(scope, senderId);
    this.#cache?.set(scope, senderId, approved);
    return approved;
  }

  /** Withdraws an approval. Contract: true when the sender had been approved. */
  async revoke(scope: PairingScope, senderId: string): Promise<boolean> {
    // Forgotten first: while the removal is under way (or if it fails) the store decides.
    this.#cache?.forget(scope, senderId);
    const removed = await this.#store.removeApproved(scope, senderId);
    this.#cache?.set(scope, senderId, false);
    return removed;
  }

  /** Whether the scope may have an approved sender: true unless the store said it has none (and that is kept). */
  async #anyApprovedIn(scope: PairingScope): Promise<boolean> {
    const scopes = this.#scopes;
    if (scopes === undefined || this.#store.hasApproved === undefined) return true;
    const known = scopes.get(scope, "");
    if (known !== undefined) return known;
    const approvals = this.#approvals;
    const any = await this.#store.hasApproved(scope);
    // An approval made here meanwhile may have been written after the read: the answer is not kept then.
    if (approvals === this.#approvals) scopes.set(scope, "", any);
    return any || approvals !== this.#approvals;
  }

  async #take(scope: PairingScope, typedCode: string): Promise<PairingDecisionOutcome> {
    const code = normalizePairingCode(typedCode);
    const request = await this.#store.getPending(scope, code);
    if (request === undefined) return { ok: false, reason: "unknown-code" };
    await this.#store.deletePending(scope, code);
    if (request.expiresAt <= this.#now()) return { ok: false, reason: "expired" };
    return { ok: true, request };
  }
}
