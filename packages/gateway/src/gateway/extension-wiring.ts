import {
  commitWritesOf,
  type RegisteredExtensions,
  rewrittenSystemPrompt,
  runAfterTurn,
  runBeforeTurn,
  runTurnStarted,
  sessionAgentPartsOf,
  sessionToolsOf,
  type TurnCommitted,
} from "../extension/index.js";
import { lowerTier } from "../lanes/lane-item.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import { userInputText } from "../turn-hooks/user-input-text.js";
import type { SessionTurnEnd, SessionTurnHooks } from "./session-runtime-deps.js";

/**
 * The turn hooks with the extensions' around them: their before-turn additions appended to the system prompt the
 * other hooks made (before the turn's first model call), their session tools and commit writes, their after-turn
 * hooks run after the others (tracked, so the gateway's `idle()` waits for them). Unchanged without extensions that
 * hook turns.
 */
export function withExtensionHooks(
  hooks: SessionTurnHooks,
  registered: RegisteredExtensions,
  logger: GatewayLogger,
  track: (work: Promise<unknown>) => void,
): SessionTurnHooks {
  type Part =
    | "beforeTurn"
    | "afterTurn"
    | "sessionTools"
    | "commitWrites"
    | "systemPrompt"
    | "turnStarted"
    | "sessionAgent";
  const has = (part: Part) => registered.extensions.some((extension) => extension[part] !== undefined);
  const [before, after, tools, writes] = [
    has("beforeTurn"),
    has("afterTurn"),
    has("sessionTools"),
    has("commitWrites"),
  ];
  const [rewrites, starts, agents] = [has("systemPrompt"), has("turnStarted"), has("sessionAgent")];
  if (!before && !after && !tools && !writes && !rewrites && !starts && !agents) return hooks;
  // Sessions whose system prompt carries an extension's addition now: the next turn without one drops it.
  const added = new Set<string>();
  return {
    ...hooks,
    systemPromptFor: async (session, base, items) => {
      const own = await hooks.systemPromptFor(session, base, items);
      const target = { sessionKey: session.key, agentId: session.agentId };
      const prompt = rewrites ? ((await rewrittenSystemPrompt(registered, target, own ?? base, logger)) ?? own) : own;
      if (!before) return prompt;
      const replyTo = items.at(-1)?.replyToMessageId;
      const senderId = items.at(-1)?.senderId;
      const additions = await runBeforeTurn(
        registered,
        {
          sessionKey: session.key,
          agentId: session.agentId,
          texts: items.map((item) => userInputText([item.message])),
          trust: items.length === 0 ? "guest" : items.map((item) => item.trust).reduce(lowerTier),
          ...(replyTo === undefined ? {} : { replyToMessageId: replyTo }),
          ...(senderId === undefined ? {} : { senderId }),
        },
        logger,
      );
      if (additions.length === 0) {
        if (!added.delete(session.key)) return prompt;
        return prompt ?? base ?? "";
      }
      added.add(session.key);
      return [prompt ?? base, ...additions].filter((part) => part !== undefined && part !== "").join("\n\n");
    },
    ...(tools
      ? {
          toolsFor: (sessionKey, agentTools) => {
            const own = hooks.toolsFor?.(sessionKey, agentTools);
            return sessionToolsOf(registered, sessionKey, own ?? agentTools, logger) ?? own;
          },
        }
      : {}),
    ...(agents ? { sessionAgent: (start) => sessionAgentPartsOf(registered, start, logger) } : {}),
    ...(writes
      ? { sideWritesFor: (sessionKey, messages) => commitWritesOf(registered, sessionKey, messages, logger) }
      : {}),
    turnStarted: (start) => {
      hooks.turnStarted(start);
      if (starts) runTurnStarted(registered, start, logger);
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
  return {
    sessionKey: end.sessionKey,
    agentId: end.agentId,
    outcome,
    answered: end.items.length,
    items: end.items,
    result: end.result,
    chat: end.chat,
  };
}
