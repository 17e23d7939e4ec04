import type { PairingScope } from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";

/** Records `senderId` as approved in `scope` (again: the approval time moves). */
export function addApproved(sqlite: SqliteContext, scope: PairingScope, senderId: string, approvedAt: number): void {
  sqlite
    .sql(
      `INSERT INTO paired_senders (channel, account_id, sender_id, approved_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (channel, account_id, sender_id) DO UPDATE SET approved_at = excluded.approved_at`,
    )
    .run(scope.channel, scope.accountId, senderId, approvedAt);
}

/** Whether `senderId` is approved in `scope`. */
export function isApproved(sqlite: SqliteContext, scope: PairingScope, senderId: string): boolean {
  const row = sqlite
    .sql("SELECT 1 AS found FROM paired_senders WHERE channel = ? AND account_id = ? AND sender_id = ?")
    .get(scope.channel, scope.accountId, senderId);
  return row !== undefined;
}

/** Withdraws `senderId`'s approval in `scope`; false if there was none. */
export function removeApproved(sqlite: SqliteContext, scope: PairingScope, senderId: string): boolean {
  const removed = sqlite
    .sql("DELETE FROM paired_senders WHERE channel = ? AND account_id = ? AND sender_id = ?")
    .run(scope.channel, scope.accountId, senderId);
  return Number(removed.changes) > 0;
}
