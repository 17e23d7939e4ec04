import type { PairingInsertResult, PairingRequest, PairingScope } from "@chorus/store";
import { pairingRequestFromRow } from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";

/**
 * Stores a pairing request unless the sender has one (`exists`), the scope already holds `maxPending` live ones
 * (`full`) or the code is taken (`code-taken`); expired requests of the scope are dropped first.
 */
export function insertPending(
  sqlite: SqliteContext,
  request: PairingRequest,
  limits: { maxPending: number; now: number },
): PairingInsertResult {
  const { channel, accountId } = request.scope;
  sqlite
    .sql("DELETE FROM pairing_requests WHERE channel = ? AND account_id = ? AND expires_at <= ?")
    .run(channel, accountId, limits.now);
  const existing = sqlite
    .sql(
      "SELECT * FROM pairing_requests WHERE channel = ? AND account_id = ? AND sender_id = ? ORDER BY created_at LIMIT 1",
    )
    .get(channel, accountId, request.senderId);
  if (existing !== undefined) return { status: "exists", request: pairingRequestFromRow(existing) };
  const live = sqlite
    .sql("SELECT count(*) AS live FROM pairing_requests WHERE channel = ? AND account_id = ?")
    .get(channel, accountId);
  if (Number(live?.live ?? 0) >= limits.maxPending) return { status: "full" };
  const inserted = sqlite
    .sql(
      `INSERT INTO pairing_requests (channel, account_id, code, sender_id, sender_name, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (channel, account_id, code) DO NOTHING`,
    )
    .run(channel, accountId, request.code, request.senderId, request.senderName, request.createdAt, request.expiresAt);
  return Number(inserted.changes) > 0 ? { status: "inserted" } : { status: "code-taken" };
}

/** The pairing request with `code` in `scope`, or undefined; an expired one is returned too. */
export function getPending(sqlite: SqliteContext, scope: PairingScope, code: string): PairingRequest | undefined {
  const row = sqlite
    .sql("SELECT * FROM pairing_requests WHERE channel = ? AND account_id = ? AND code = ?")
    .get(scope.channel, scope.accountId, code);
  return row === undefined ? undefined : pairingRequestFromRow(row);
}

/** The scope's pairing requests still live at `now`, oldest first. */
export function listPending(sqlite: SqliteContext, scope: PairingScope, now: number): PairingRequest[] {
  return sqlite
    .sql(
      `SELECT * FROM pairing_requests WHERE channel = ? AND account_id = ? AND expires_at > ?
       ORDER BY created_at, code`,
    )
    .all(scope.channel, scope.accountId, now)
    .map(pairingRequestFromRow);
}

/** Drops the pairing request with `code` in `scope`, if there is one. */
export function deletePending(sqlite: SqliteContext, scope: PairingScope, code: string): void {
  sqlite
    .sql("DELETE FROM pairing_requests WHERE channel = ? AND account_id = ? AND code = ?")
    .run(scope.channel, scope.accountId, code);
}
