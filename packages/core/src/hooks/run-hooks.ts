import type { CoreLogger } from "../logging/core-logger.js";
import type { AgentHooks, HookEvent, HookOutcome } from "./hook-types.js";

const CONTINUE: HookOutcome = { kind: "continue" };

/**
 * Runs the hooks of `event.event` in order. Contract: never throws; the first `block` (or failure, its message as
 * the reason) wins and is returned; failures are logged. Callers of non-blocking events ignore the outcome.
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
      if (outcome?.kind === "block") return outcome;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      logger?.warn({ hookEvent: event.event, err: reason }, "hook failed");
      return { kind: "block", reason };
    }
  }
  return CONTINUE;
}
