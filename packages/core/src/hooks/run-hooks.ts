import type { CoreLogger } from "../logging/core-logger.js";
import type { AgentHooks, HookEvent, HookOutcome } from "./hook-types.js";

const CONTINUE: HookOutcome = { kind: "continue" };

const BLOCKING = new Set(["turn_start", "pre_tool_use"]);

/**
 * Runs the hooks of `event.event` in order. Contract: never throws; failures are logged. For a blocking event
 * (turn_start, pre_tool_use) the first `block` — or failure, its message as the reason — wins and is returned;
 * for the others every hook runs and the outcome is always `continue`.
 */
export async function runHooks(
  hooks: AgentHooks | undefined,
  event: HookEvent,
  signal: AbortSignal,
  logger?: CoreLogger,
): Promise<HookOutcome> {
  const list = hooks?.[event.event];
  if (!list || list.length === 0) return CONTINUE;
  for (const hook of list) {
    try {
      const outcome = await hook(event, signal);
      if (outcome?.kind !== "block") continue;
      if (BLOCKING.has(event.event)) return outcome;
      logger?.warn({ hookEvent: event.event, err: outcome.reason }, "hook failed");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      logger?.warn({ hookEvent: event.event, err: reason }, "hook failed");
      if (BLOCKING.has(event.event)) return { kind: "block", reason };
    }
  }
  return CONTINUE;
}
