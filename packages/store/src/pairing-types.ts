/** Pairing happens per channel account. */
export interface PairingScope {
  readonly channel: string;
  readonly accountId: string;
}

/** A pending request from an unknown DM sender. Times are epoch milliseconds. */
export interface PairingRequest {
  readonly scope: PairingScope;
  readonly code: string;
  readonly senderId: string;
  readonly senderName: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** What happened when a request was stored. */
export type PairingInsertResult =
  | { readonly status: "inserted" }
  /** The sender already has a live request: it is returned instead. */
  | { readonly status: "exists"; readonly request: PairingRequest }
  /** The scope already has `maxPending` live requests. */
  | { readonly status: "full" }
  /** Another live request in the scope has this code. */
  | { readonly status: "code-taken" };

/**
 * Where pairing state lives (memory, SQLite, Postgres…). "Live" means not expired at the given `now`.
 * Contract: `insertPending` is atomic — check and insert happen as one step — so concurrent requests can never exceed
 * `maxPending`; codes are compared exactly (the service normalises them).
 */
export interface PairingStore {
  insertPending(request: PairingRequest, limits: { maxPending: number; now: number }): Promise<PairingInsertResult>;
  /** The request with this code in the scope, expired or not. */
  getPending(scope: PairingScope, code: string): Promise<PairingRequest | undefined>;
  /** Live requests in the scope, oldest first. */
  listPending(scope: PairingScope, now: number): Promise<PairingRequest[]>;
  deletePending(scope: PairingScope, code: string): Promise<void>;
  addApproved(scope: PairingScope, senderId: string, approvedAt: number): Promise<void>;
  isApproved(scope: PairingScope, senderId: string): Promise<boolean>;
  /**
   * Whether any sender is approved in the scope. Optional: a store whose reads are network round trips offers it, so
   * that the pairing service can tell every sender of a scope nobody was approved in apart without a read each.
   */
  hasApproved?(scope: PairingScope): Promise<boolean>;
  /** Contract: true when the sender was approved before this call. */
  removeApproved(scope: PairingScope, senderId: string): Promise<boolean>;
}
