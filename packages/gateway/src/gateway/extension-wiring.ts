import { type RegisteredExtensions, runAfterTurn, runBeforeTurn, type TurnCommitted } from "../extension/index.js";
import { lowerTier } from "../lanes/lane-item.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import { userInputText } from "../memory/user-input-text.js";
import type { SessionTurnEnd, SessionTurnHooks } from "./session-runtime-deps.js";

/**
 * The turn hooks with the extensions' around them: their before-turn additions appended to the system prompt the
 * other hooks made (before the turn's first model call), their after-turn hooks run after the others (tracked, so the
 * gateway's `idle()` waits for them). Unchanged without extensions that hook turns.
 */
export function withExtensionHooks(
  hooks: SessionTurnHooks,
  registered: RegisteredExtensions,
  logger: GatewayLogger,
  track: (work: Promise<unknown>) => void,
): SessionTurnHooks {
  const before = registered.extensions.some((extension) => extension.beforeTurn !== undefined);
  const after = registered.extensions.some((extension) => extension.afterTurn !== undefined);
  if (!before && !after) return hooks;
  return {
    ...hooks,
    systemPromptFor: async (session, base, items) => {
      const prompt = await hooks.systemPromptFor(session, base, items);
      if (!before) return prompt;
      const additions = await runBeforeTurn(
        registered,
        {
          sessionKey: session.key,
          agentId: session.agentId,
          texts: items.map((item) => userInputText([item.message])),
          trust: items.length === 0 ? "guest" : items.map((item) => item.trust).reduce(lowerTier),
        },
        logger,
      );
      if (additions.length === 0) return prompt;
      return [prompt ?? base, ...additions].filter((part) => part !== undefined && part !== "").join("\n\n");
    },
    turnEnded: (end) => {
      hooks.turnEnded(end);
      if (after) track(runAfterTurn(registered, committedOf(end), logger));
    },
  };
}

function committedOf(end: SessionTurnEnd): TurnCommitted {
  const reason = end.result?.reason;
  const outcome =
    end.result === undefined
      ? "not-started"
      : reason === "aborted"
        ? "aborted"
        : reason === "error"
          ? "failed"
          : "completed";
  return { sessionKey: end.sessionKey, agentId: end.agentId, outcome };
}
