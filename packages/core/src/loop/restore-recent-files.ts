import { withRestoredFiles } from "../context/context-restoration/with-restored-files.js";
import type { RunState } from "./run-state.js";

/**
 * After a summarising compaction, re-attaches the files the session read recently (seed 004, tier 2 only).
 * Contract: never throws — a failing source leaves the compacted transcript as it was (and is logged).
 */
export async function restoreRecentFiles(state: RunState): Promise<void> {
  const outcome = await withRestoredFiles(state.config.context?.restoration, state.run, state.messages);
  state.messages = outcome.messages;
  if (outcome.error !== undefined) {
    state.config.logger?.warn({ err: outcome.error }, "restoring recently read files after compaction failed");
  }
}
