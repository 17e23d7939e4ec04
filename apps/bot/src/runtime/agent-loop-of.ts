import type { ContextConfig } from "@chorus/core";
import type { AgentRuntimeSetup } from "@chorus/gateway";
import type { ResolveModel } from "../config/agent-loop-issues.js";
import type { BotAgent } from "../config/bot-config-schema.js";

/** The loop settings the gateway takes for one agent (`AgentRuntimeSetup.loop`). */
export type AgentLoopSettings = NonNullable<AgentRuntimeSetup["loop"]>;

/**
 * An agent's loop settings from its config: fallback models as models (overload falls back at once, as seed 004 says;
 * a stall falls back too unless `stallRecovery` says otherwise), max turns, the stall timeout, and the compaction
 * level, model and thresholds as the loop's context settings.
 * Contract: `{}` for an agent that sets none; throws what `resolve` throws for an unknown model (the config's check,
 * `agentLoopIssues`, reports those with their paths first).
 * @example agentLoopOf(agent, (ref) => resolveModelRef(ref, registry, config)) // { fallbackModels: [haiku], … }
 */
export function agentLoopOf(agent: BotAgent, resolve: ResolveModel): AgentLoopSettings {
  const loop: AgentLoopSettings = {};
  const fallbackModels = agent.fallbackModels.map(resolve);
  if (fallbackModels.length > 0) {
    loop.fallbackModels = fallbackModels;
    loop.fallbackImmediately = true;
  }
  if (agent.maxTurns !== undefined) loop.maxTurns = agent.maxTurns;
  if (agent.stallTimeoutSecs !== undefined) loop.stallTimeoutMs = agent.stallTimeoutSecs * 1000;
  const stallRecovery = agent.stallRecovery ?? (fallbackModels.length > 0 ? "fallback" : undefined);
  if (stallRecovery !== undefined) loop.stallRecovery = stallRecovery;
  const context = compactionContext(agent.compaction, resolve);
  if (context !== undefined) loop.context = context;
  return loop;
}

/** The loop's context settings for a compaction level (see `compactionLevelSchema`); undefined: the loop's defaults. */
function compactionContext(settings: BotAgent["compaction"], resolve: ResolveModel): ContextConfig | undefined {
  if (settings.level === "off") return { microCompaction: { enabled: false }, compaction: { enabled: false } };
  if (settings.level === "safe") return { compaction: { enabled: false } };
  const { model, reserveTokens, keepRecentTokens } = settings;
  if (model === undefined && reserveTokens === undefined && keepRecentTokens === undefined) return undefined;
  return {
    ...(reserveTokens === undefined ? {} : { reserve: reserveTokens }),
    compaction: {
      ...(model === undefined ? {} : { model: resolve(model) }),
      ...(keepRecentTokens === undefined ? {} : { keepRecentTokens }),
    },
  };
}
