import type { PairingInsertResult, PairingRequest, PairingScope } from "@chorus/store";
import { pairingRequestFromRow } from "@chorus/store";
import { prepared } from "../prepared-statements.js";
import type { Db } from "../query-runner.js";

/**
 * Drops the scope's expired requests, then inserts `request` unless its sender already has one, the scope is full or
 * the code is taken. Contract: run atomically; the scope's advisory lock makes concurrent inserts take turns, so two
 * of them never both fill the last place.
 */
export async function insertPending(
  db: Db,
  request: PairingRequest,
  limits: { maxPending: number; now: number },
): Promise<PairingInsertResult> {
  const { channel, accountId } = request.scope;
  await db.query("SELECT pg_advisory_xact_lock(hashtext('chorus.pairing:' || $1 || ':' || $2))", [channel, accountId]);
  await db.query("DELETE FROM pairing_requests WHERE channel = $1 AND account_id = $2 AND expires_at <= $3", [
    channel,
    accountId,
    limits.now,
  ]);
  const existing = await db.query(
    `SELECT * FROM pairing_requests WHERE channel = $1 AND account_id = $2 AND sender_id = $3
     ORDER BY created_at LIMIT 1`,
    [channel, accountId, request.senderId],
  );
  if (existing.rows[0] !== undefined) return { status: "exists", request: pairingRequestFromRow(existing.rows[0]) };
  const live = await db.query("SELECT count(*) AS live FROM pairing_requests WHERE channel = $1 AND account_id = $2", [
    channel,
    accountId,
  ]);
  if (Number(live.rows[0]?.live ?? 0) >= limits.maxPending) return { status: "full" };
  const inserted = await db.query(
    `INSERT INTO pairing_requests (channel, account_id, code, sender_id, sender_name, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (channel, account_id, code) DO NOTHING`,
    [channel, accountId, request.code, request.senderId, request.senderName, request.createdAt, request.expiresAt],
  );
  return (inserted.rowCount ?? 0) > 0 ? { status: "inserted" } : { status: "code-taken" };
}

export async function getPending(db: Db, scope: PairingScope, code: string): Promise<PairingRequest | undefined> {
  const { rows } = await db.query(
    "SELECT * FROM pairing_requests WHERE channel = $1 AND account_id = $2 AND code = $3",
    [scope.channel, scope.accountId, code],
  );
  return rows[0] === undefined ? undefined : pairingRequestFromRow(rows[0]);
}

export async function listPending(db: Db, scope: PairingScope, now: number): Promise<PairingRequest[]> {
  const { rows } = await db.query(
    `SELECT * FROM pairing_requests WHERE channel = $1 AND account_id = $2 AND expires_at > $3
     ORDER BY created_at, code`,
    [scope.channel, scope.accountId, now],
  );
  return rows.map(pairingRequestFromRow);
}

export async function deletePending(db: Db, scope: PairingScope, code: string): Promise<void> {
  await db.query("DELETE FROM pairing_requests WHERE channel = $1 AND account_id = $2 AND code = $3", [
    scope.channel,
    scope.accountId,
    code,
  ]);
}

export async function addApproved(db: Db, scope: PairingScope, senderId: string, approvedAt: number): Promise<void> {
  await db.query(
    `INSERT INTO paired_senders (channel, account_id, sender_id, approved_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (channel, account_id, sender_id) DO UPDATE SET approved_at = excluded.approved_at`,
    [scope.channel, scope.accountId, senderId, approvedAt],
  );
}

const IS_APPROVED = prepared(
  "is_approved",
  "SELECT 1 FROM paired_senders WHERE channel = $1 AND account_id = $2 AND sender_id = $3",
);

export async function isApproved(db: Db, scope: PairingScope, senderId: string): Promise<boolean> {
  const { rows } = await db.query(IS_APPROVED, [scope.channel, scope.accountId, senderId]);
  return rows.length > 0;
}

const HAS_APPROVED = prepared(
  "has_approved",
  "SELECT 1 FROM paired_senders WHERE channel = $1 AND account_id = $2 LIMIT 1",
);

export async function hasApproved(db: Db, scope: PairingScope): Promise<boolean> {
  const { rows } = await db.query(HAS_APPROVED, [scope.channel, scope.accountId]);
  return rows.length > 0;
}

export async function removeApproved(db: Db, scope: PairingScope, senderId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    "DELETE FROM paired_senders WHERE channel = $1 AND account_id = $2 AND sender_id = $3",
    [scope.channel, scope.accountId, senderId],
  );
  return (rowCount ?? 0) > 0;
}
