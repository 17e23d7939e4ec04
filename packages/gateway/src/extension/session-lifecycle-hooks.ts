import type { SessionRecord } from "@chorus/store";
import { describeError } from "../logging/gateway-logger.js";
import type { SessionActor } from "../permissions/session-change-permission.js";
import type { ExtensionStartContext, TurnStarted } from "./gateway-extension.js";
import type { RegisteredExtensions } from "./registered-extensions.js";

type Logger = ExtensionStartContext["logger"];

/**
 * The agent's system prompt after every extension's `systemPrompt` rewrite, in order. Contract: undefined when none
 * changed it; a rewrite that throws is logged and skipped.
 */
export async function rewrittenSystemPrompt(
  registered: RegisteredExtensions,
  session: { readonly sessionKey: string; readonly agentId: string },
  prompt: string | undefined,
  logger: Logger,
): Promise<string | undefined> {
  let rewritten: string | undefined;
  for (const extension of registered.extensions) {
    if (extension.systemPrompt === undefined) continue;
    try {
      rewritten = (await extension.systemPrompt(session, rewritten ?? prompt)) ?? rewritten;
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey: session.sessionKey, error: describeError(error) },
        "extension system-prompt hook failed; the turn keeps the prompt",
      );
    }
  }
  return rewritten;
}

/** Tells every extension a turn started, in order, each contained. */
export function runTurnStarted(registered: RegisteredExtensions, turn: TurnStarted, logger: Logger): void {
  for (const extension of registered.extensions) {
    try {
      extension.turnStarted?.(turn);
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey: turn.sessionKey, error: describeError(error) },
        "extension turn-started hook failed",
      );
    }
  }
}

/** The first extension's refusal to let `actor` end what runs in the session, or undefined. A throw refuses nothing. */
export async function endRefusalOf(
  registered: RegisteredExtensions,
  sessionKey: string,
  actor: SessionActor,
  logger: Logger,
): Promise<string | undefined> {
  for (const extension of registered.extensions) {
    try {
      const refusal = await extension.endRefusal?.(sessionKey, actor);
      if (refusal !== undefined) return refusal;
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey, error: describeError(error) },
        "extension end check failed",
      );
    }
  }
  return undefined;
}

/** Tells every extension of `/stop`; resolves with whether any stopped something. Never rejects. */
export async function runSessionStopped(
  registered: RegisteredExtensions,
  sessionKey: string,
  logger: Logger,
): Promise<boolean> {
  let stopped = false;
  for (const extension of registered.extensions) {
    try {
      stopped = ((await extension.sessionStopped?.(sessionKey)) ?? false) || stopped;
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey, error: describeError(error) },
        "extension stop hook failed",
      );
    }
  }
  return stopped;
}

/** Whether an extension resumes this session itself after a restart (restart recovery leaves it alone). */
export function resumedByAnExtension(registered: RegisteredExtensions, session: SessionRecord): boolean {
  return registered.extensions.some((extension) => extension.resumesItself?.(session) === true);
}
