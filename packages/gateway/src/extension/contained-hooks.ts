import type { ExtensionStartContext, TurnAboutToStart, TurnCommitted } from "./gateway-extension.js";
import type { RegisteredExtensions } from "./registered-extensions.js";

type Logger = ExtensionStartContext["logger"];

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs every extension's `beforeTurn`, in order. Contract: resolves with the system prompt additions (in order);
 * a hook that throws is logged and adds nothing — the turn goes on.
 */
export async function runBeforeTurn(
  registered: RegisteredExtensions,
  turn: TurnAboutToStart,
  logger: Logger,
): Promise<string[]> {
  const additions: string[] = [];
  for (const extension of registered.extensions) {
    if (extension.beforeTurn === undefined) continue;
    try {
      const added = (await extension.beforeTurn(turn))?.systemPromptAddition;
      if (added !== undefined && added.trim() !== "") additions.push(added);
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey: turn.sessionKey, error: reason(error) },
        "extension before-turn hook failed; the turn goes on without it",
      );
    }
  }
  return additions;
}

/** Runs every extension's `afterTurn`, in order, each contained. Contract: never rejects. */
export async function runAfterTurn(
  registered: RegisteredExtensions,
  turn: TurnCommitted,
  logger: Logger,
): Promise<void> {
  for (const extension of registered.extensions) {
    if (extension.afterTurn === undefined) continue;
    try {
      await extension.afterTurn(turn);
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey: turn.sessionKey, error: reason(error) },
        "extension after-turn hook failed",
      );
    }
  }
}

/** Runs every extension's `sessionIdle`, in order, each contained. Contract: never rejects. */
export async function runSessionIdle(
  registered: RegisteredExtensions,
  session: { readonly sessionKey: string; readonly agentId: string },
  logger: Logger,
): Promise<void> {
  for (const extension of registered.extensions) {
    if (extension.sessionIdle === undefined) continue;
    try {
      await extension.sessionIdle(session);
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey: session.sessionKey, error: reason(error) },
        "extension session-idle hook failed",
      );
    }
  }
}

/**
 * Starts the extensions in order. Contract: rejects with the first failure, after stopping the ones already started
 * (in reverse order).
 */
export async function startExtensions(registered: RegisteredExtensions, context: ExtensionStartContext): Promise<void> {
  const started: RegisteredExtensions["extensions"][number][] = [];
  for (const extension of registered.extensions) {
    try {
      await extension.start?.(context);
      started.push(extension);
    } catch (error) {
      await stopExtensions({ ...registered, extensions: started }, context.logger);
      throw error;
    }
  }
}

/** Stops the extensions in reverse order, each contained. Contract: never rejects. */
export async function stopExtensions(registered: RegisteredExtensions, logger: Logger): Promise<void> {
  for (const extension of [...registered.extensions].reverse()) {
    try {
      await extension.stop?.();
    } catch (error) {
      logger.error({ extension: extension.name, error: reason(error) }, "extension did not stop cleanly");
    }
  }
}
