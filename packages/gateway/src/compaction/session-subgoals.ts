import { type CoreLogger, type Model, type StreamFn, SubgoalTracker } from "@chorus/core";
import type { CompactionSettings } from "./compaction-config.js";

/** What a session's subgoal tracker needs from the gateway. */
export interface SessionSubgoalDeps {
  /** The session's current model (used when no `subgoalModel` is configured). */
  model(): Model;
  resolveModel(id: string): Model | undefined;
  streamFn: StreamFn;
  logger: CoreLogger;
}

/**
 * A session's subgoal tracker, or undefined when the agent uses no subgoal pruning strategy (the default).
 * Contract: the extraction goes through the gateway's StreamFn (so budgets count it) on `subgoalModel` if it is
 * known, else the session's model.
 */
export function sessionSubgoalTracker(
  settings: CompactionSettings,
  deps: SessionSubgoalDeps,
): SubgoalTracker | undefined {
  const strategy = settings.pruning[0];
  if (strategy === undefined) return undefined;
  return new SubgoalTracker({
    strategy,
    complete: (context) => {
      const configured = settings.subgoalModel === undefined ? undefined : deps.resolveModel(settings.subgoalModel);
      return deps.streamFn(configured ?? deps.model(), context).result();
    },
    logger: deps.logger,
  });
}
