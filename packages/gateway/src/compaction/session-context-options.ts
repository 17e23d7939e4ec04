import type { ContextConfig } from "@chorus/core";

/**
 * The `context` option of a session's Agent, built in this one place so that no layer drops another: the
 * gateway-wide `loop.context` and the agent's own (context restoration); the extensions' layers (e.g. subgoal
 * tracking, in @chorus/extension-context) wrap it. The automatic compaction and `/compact` both run with it.
 * Contract: `{}` when no layer sets anything; the inputs are not changed.
 */
export function sessionContextOptions(
  gateway: ContextConfig | undefined,
  agent: ContextConfig | undefined,
): { context?: ContextConfig } {
  const context = agent === undefined ? gateway : { ...gateway, ...agent };
  return context === undefined ? {} : { context };
}
