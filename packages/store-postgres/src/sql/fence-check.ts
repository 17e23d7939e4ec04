import { SessionStoreError } from "@chorus/store";
import type { Db } from "../query-runner.js";

/**
 * Why a fenced write wrote nothing, when it is the fence: the session's lease moved on to another epoch.
 * Contract: resolves when the lease is still at `epoch` (the refusal had another cause); else rejects with `fenced`.
 */
export async function checkFence(db: Db, sessionKey: string, epoch: number): Promise<void> {
  const { rows } = await db.query("SELECT owner, epoch FROM shard_leases WHERE shard = chorus_shard($1)", [sessionKey]);
  const now = Number(rows[0]?.epoch ?? -1);
  if (now === epoch) return;
  throw new SessionStoreError(
    "fenced",
    `Session ${sessionKey} was taken over by another instance (its lease epoch is ${now}, this write carried ${epoch}); nothing was written — the new owner answers its messages.`,
  );
}
