import type { AgentMessage } from "../messages/message-types.js";
import { stripOrphanedToolResults } from "./orphaned-tool-results.js";

/** What a post-compaction step sees: the transcript before the compaction and the compacted one. */
export interface CompactionStepInput {
  readonly before: readonly AgentMessage[];
  readonly after: AgentMessage[];
}

/**
 * A step run after every summarising ("hard") compaction, in order, e.g. re-inserting the active subgoal's messages
 * or re-attaching recently read files. Contract: returns the transcript to keep (the input `after` when unchanged);
 * must not throw (a throwing step is skipped and its input kept).
 */
export type CompactionStep = (input: CompactionStepInput) => AgentMessage[];

/**
 * Finishes a hard compaction: runs the steps in order, then always strips orphaned tool results (seed 002: after
 * EVERY hard compaction, and after any step that inserts messages). Contract: never throws.
 */
export function finishCompaction(
  before: readonly AgentMessage[],
  after: AgentMessage[],
  steps: readonly CompactionStep[] = [],
): AgentMessage[] {
  let messages = after;
  for (const step of steps) {
    try {
      messages = step({ before, after: messages });
    } catch {
      // A broken step must not lose the compaction; its input stands.
    }
  }
  return stripOrphanedToolResults(messages);
}
