import type { TurnCommit, TurnCommitResult } from "../store-types.js";
import type { SessionStoreCore } from "./store-core.js";

/** Writes one turn (messages, run change, outbox entries) in one transaction of `core`. Contract: all or nothing. */
export function commitTurnOn(core: SessionStoreCore, turn: TurnCommit): TurnCommitResult {
  return core.atomically(() => {
    const appended = core.appendMessages(turn.sessionKey, turn.messages);
    const written = turn.outbox !== undefined && turn.outbox.length > 0 ? core.enqueueOutbox(turn.outbox) : [];
    // Claimed in the same transaction: a just-written entry is pending, so each claim succeeds.
    const outbox =
      turn.claimOutbox === true ? written.map((entry) => core.claimOutboxEntry(entry.id) ?? entry) : written;
    if (turn.run === undefined) return { ...appended, outbox };
    const run = core.updateRun(turn.run.id, turn.run.patch);
    return { ...appended, run, outbox };
  });
}
