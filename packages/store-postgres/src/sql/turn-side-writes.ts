import type { TurnCommit, TurnCommitResult } from "@chorus/store";
import type { Db } from "../query-runner.js";
import type { StoreContext } from "./store-context.js";
import { commitTurn } from "./turn-statements.js";

/**
 * `commitTurn` with the turn's `sideWrites.onClient` (long-term memory's facts) in the same transaction: only a turn
 * carrying them pays for BEGIN … COMMIT around the single-statement commit. Contract: all or nothing — a refused turn
 * or a failing side write leaves neither behind.
 */
export function commitTurnWithSideWrites(db: Db, ctx: StoreContext, turn: TurnCommit): Promise<TurnCommitResult> {
  const onClient = turn.sideWrites?.onClient;
  if (onClient === undefined) return commitTurn(db, ctx, turn);
  return db.atomically(async (tx) => {
    const result = await commitTurn(tx, ctx, turn);
    const sideWritten = await onClient(tx);
    return sideWritten ? { ...result, sideWritten } : result;
  });
}
