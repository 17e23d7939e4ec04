import type { RunRecord, TurnCommit, TurnCommitResult } from "../store-types.js";
import type { SessionStoreCore } from "./store-core.js";
import { assertRunning, notFound } from "./store-validation.js";

/**
 * Writes one turn (messages, run change, outbox entries, then its `sideWrites.sync` on the engine's connection) in one
 * transaction of `core`. Contract: all or nothing.
 */
export function commitTurnOn(core: SessionStoreCore, turn: TurnCommit): TurnCommitResult {
  return core.atomically(() => {
    if (turn.startsTranscript === true) core.resetTranscript(turn.sessionKey);
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
    const run = turn.run === undefined ? undefined : turnRun(core, turn.sessionKey, turn.run);
    const sync = turn.sideWrites?.sync;
    const sideWritten = sync !== undefined && core.connection !== undefined && sync(core.connection);
    return { ...appended, ...(run === undefined ? {} : { run }), outbox, ...(sideWritten ? { sideWritten } : {}) };
  });
}

/** The turn's run as this commit leaves it: started here when `start` is given and it is not stored yet, then patched. */
function turnRun(core: SessionStoreCore, sessionKey: string, run: NonNullable<TurnCommit["run"]>): RunRecord {
  const { id, patch, start } = run;
  if (start !== undefined) {
    // Written, not read first: most turns start their run in the commit that ends it (one upsert on SQLite).
    const traceparent = start.traceparent === undefined ? {} : { traceparent: start.traceparent };
    return core.startOrPatchRun({ id, sessionKey, agentId: start.agentId, ...traceparent }, patch);
  }
  if (patch !== undefined) return core.updateRun(id, patch);
  const current = core.getRun(id);
  if (current === undefined) throw notFound("run", id);
  assertRunning(id, current.status);
  return current;
}
