import { SubgoalRegistry } from "@chorus/core";

/**
 * The session setting that holds its subgoal registry, so a session let go (idle, restart, another owner) picks it up
 * again. The same key and format the gateway used before the feature moved here: stored sessions keep their subgoals.
 */
export const SUBGOALS_SETTING = "subgoals";

/** The registry stored with a session. Contract: never throws; none or malformed is an empty registry. */
export function readStoredSubgoals(settings: Readonly<Record<string, unknown>>): SubgoalRegistry {
  const registry = new SubgoalRegistry();
  registry.restore(settings[SUBGOALS_SETTING]);
  return registry;
}
