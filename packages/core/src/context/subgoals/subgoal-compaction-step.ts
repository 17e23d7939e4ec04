import type { AgentMessage } from "../../messages/message-types.js";
import type { CompactionStep } from "../compaction-steps.js";
import { estimateMessageTokens } from "../token-estimate.js";
import type { SubgoalRegistry } from "./subgoal-registry.js";

/**
 * The post-compaction step of the subgoal strategies (seed 002): the active subgoal's messages that the drain took
 * are re-inserted right after the head (the summary), and the registry's spans are repaired by offset arithmetic.
 * Contract: never loses an active-subgoal message; the re-inserted block never starts with a tool result (its call
 * would be gone). At most `maxTokens()` of the newest drained active messages come back, so a subgoal as long as the
 * conversation cannot undo the compaction; older ones are only in the summary. Place it after other steps that
 * insert messages before the kept tail.
 */
export function subgoalCompactionStep(registry: SubgoalRegistry, maxTokens: () => number): CompactionStep {
  return ({ before, after }) => {
    registry.extendActive(before.length);
    const tail = keptTailLength(before, after);
    const cut = before.length - tail;
    const head = after.length - tail;
    const active = registry.activeSubgoal();
    if (active === undefined || active.start >= cut) {
      registry.rebuildAfterCompaction({ cut, head, reinserted: 0 });
      return after;
    }
    let from = cut;
    let tokens = 0;
    const budget = maxTokens();
    while (from > active.start) {
      const next = estimateMessageTokens(before[from - 1] as AgentMessage);
      if (tokens + next > budget) break;
      tokens += next;
      from--;
    }
    while (from < cut && (before[from] as { role: string }).role === "toolResult") from++;
    const block = before.slice(from, cut) as AgentMessage[];
    registry.rebuildAfterCompaction({ cut, head, reinserted: block.length });
    return [...after.slice(0, head), ...block, ...after.slice(head)];
  };
}

/** How many messages at the end of `after` are the very messages at the end of `before` (the kept tail). */
function keptTailLength(before: readonly AgentMessage[], after: readonly AgentMessage[]): number {
  let n = 0;
  while (n < before.length && n < after.length && before[before.length - 1 - n] === after[after.length - 1 - n]) n++;
  return n;
}
