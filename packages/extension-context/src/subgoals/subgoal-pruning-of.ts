import type { SubgoalPruningStrategy } from "@chorus/core";
import type { ExtensionStartContext } from "@chorus/gateway";

/** An agent's subgoal pruning, as its gateway config sets it (`agents[].compaction`). */
export interface SubgoalPruning {
  readonly strategy: SubgoalPruningStrategy;
  /** The extraction model's catalog id; undefined: the session's model. */
  readonly subgoalModel: string | undefined;
}

/**
 * The subgoal pruning of an agent, read from the gateway's config (`compaction.pruning`, `compaction.subgoalModel`:
 * the keys stay where every existing config has them). Contract: undefined for an unknown agent or no strategy.
 */
export function subgoalPruningOf(context: ExtensionStartContext, agentId: string): SubgoalPruning | undefined {
  const compaction = context.config.agents.find((agent) => agent.id === agentId)?.compaction;
  const strategy = compaction?.pruning[0];
  return strategy === undefined ? undefined : { strategy, subgoalModel: compaction?.subgoalModel };
}
