import type { ContextConfig, SubgoalTracker } from "@chorus/core";

/**
 * The `context` option of a session's Agent, built in this one place so that no layer drops another: the
 * gateway-wide `loop.context`, the agent's own (context restoration), and the session's subgoal tracking
 * (micro-compaction scores, re-insertion after a summary). The automatic compaction and `/compact` both run with it.
 * Contract: `{}` when no layer sets anything; the inputs are not changed.
 */
export function sessionContextOptions(
  gateway: ContextConfig | undefined,
  agent: ContextConfig | undefined,
  subgoals: SubgoalTracker | undefined,
): { context?: ContextConfig } {
  const base = agent === undefined ? gateway : { ...gateway, ...agent };
  const context = subgoals === undefined ? base : subgoals.applyTo(base);
  return context === undefined ? {} : { context };
}
