import { lowerTier } from "../lanes/lane-item.js";
import { GatewayMemory, type GatewayMemoryDeps } from "../memory/gateway-memory.js";
import type { GatewayMemoryOptions } from "../memory/gateway-memory-options.js";
import type { ModelCatalog } from "../model-preference/model-catalog.js";
import type { AgentRuntimeSetup } from "./gateway-options.js";
import type { SessionTurnHooks } from "./session-runtime-deps.js";

/** An agent's setup with the memory tools added (unchanged without memory). */
export function withMemoryTools(
  setup: AgentRuntimeSetup | undefined,
  memory: GatewayMemory | undefined,
): AgentRuntimeSetup | undefined {
  if (memory === undefined) return setup;
  return { ...setup, tools: [...(setup?.tools ?? []), ...memory.tools] };
}

/**
 * The turn hooks with memory around them: recall appended to the system prompt the other hooks made (before the
 * turn's first model call), held facts written with the commit storing their `remember` result. Unchanged without memory.
 */
export function withMemoryHooks(hooks: SessionTurnHooks, memory: GatewayMemory | undefined): SessionTurnHooks {
  if (memory === undefined) return hooks;
  return {
    systemPromptFor: async (session, base, items) => {
      const prompt = await hooks.systemPromptFor(session, base, items);
      const tier = items.length === 0 ? "guest" : items.map((item) => item.trust).reduce(lowerTier);
      return memory.promptWithRecall(session.key, prompt ?? base, items, tier);
    },
    toolsFor: (sessionKey, tools) => memory.toolsFor(sessionKey, hooks.toolsFor?.(sessionKey, tools) ?? tools),
    turnStarted: (start) => hooks.turnStarted(start),
    sideWritesFor: (sessionKey, messages) => memory.sideWritesFor(sessionKey, messages),
    turnEnded: (end) => {
      memory.turnEnded(end.sessionKey, end.items);
      hooks.turnEnded(end);
    },
  };
}

/** Long-term memory for the gateway, when configured: its extraction calls go through `deps.streamFn`. */
export function gatewayMemoryFor(
  options: GatewayMemoryOptions | undefined,
  deps: Omit<GatewayMemoryDeps, "findModel">,
  models: ModelCatalog,
): GatewayMemory | undefined {
  if (options === undefined) return undefined;
  return new GatewayMemory(options, { ...deps, findModel: (id) => models.find(id) });
}
