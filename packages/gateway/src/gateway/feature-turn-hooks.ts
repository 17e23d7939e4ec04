import type { RegisteredExtensions } from "../extension/index.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import type { SessionTurnHooks } from "../turn-hooks/session-turn-hooks.js";
import { withExtensionHooks } from "./extension-wiring.js";

/** Nothing around a turn: the agent's own prompt and tools, no writes of its own. */
const NO_HOOKS: SessionTurnHooks = {
  systemPromptFor: async () => undefined,
  turnStarted: () => {},
  turnEnded: () => {},
};

/**
 * The session runtimes' turn hooks: the extensions' (in the order they were given: system prompt rewrites, then
 * additions; who started a turn; its end). Unchanged without extensions that hook turns.
 */
export function featureTurnHooks(
  logger: GatewayLogger,
  track: (work: Promise<unknown>) => void,
  extensions: RegisteredExtensions,
): SessionTurnHooks {
  return withExtensionHooks(NO_HOOKS, extensions, logger, track);
}
