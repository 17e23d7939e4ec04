import type { TurnCommit, TurnCommitResult } from "../store-types.js";
import type { SessionStoreCore } from "./store-core.js";

/**
 * Writes one turn (messages, run change, outbox entries, then its `sideWrites.sync` on the engine's connection) in one
 * transaction of `core`. Contract: all or nothing.
 */
export function commitTurnOn(core: SessionStoreCore, turn: TurnCommit): TurnCommitResult {
  return core.atomically(() => {
    const appended = core.appendMessages(
      turn.sessionKey,
      turn.messages,
      turn.answersSeq === undefined ? undefined : { answersSeq: turn.answersSeq },
    );
    const entries = turn.outbox ?? [];
    // Claimed in the same transaction: written in-flight at once (one write per entry instead of an insert and a claim).
    const outbox =
      entries.length === 0
        ? []
        : turn.claimOutbox === true
          ? core.enqueueClaimedOutbox(entries)
          : core.enqueueOutbox(entries);
    const run = turn.run === undefined ? undefined : core.updateRun(turn.run.id, turn.run.patch);
    const sync = turn.sideWrites?.sync;
    const sideWritten = sync !== undefined && core.connection !== undefined && sync(core.connection);
    return { ...appended, ...(run === undefined ? {} : { run }), outbox, ...(sideWritten ? { sideWritten } : {}) };
  });
}
