import { describeError } from "../logging/gateway-logger.js";
import type {
  ExtensionStartContext,
  GatewayExtension,
  OwnershipChange,
  StatusSession,
  TurnAboutToStart,
  TurnCommitted,
} from "./gateway-extension.js";
import type { RegisteredExtensions } from "./registered-extensions.js";

type Logger = ExtensionStartContext["logger"];

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
        { extension: extension.name, sessionKey: turn.sessionKey, error: describeError(error) },
        "extension before-turn hook failed; the turn goes on without it",
      );
    }
  }
  return additions;
}

/** Every extension's `/status` lines, in order. Contract: never rejects; a hook that throws is logged and adds none. */
export async function statusLinesOf(registered: RegisteredExtensions, session: StatusSession, logger: Logger) {
  const lines: string[] = [];
  const of = (e: GatewayExtension) => e.statusLines && (async () => lines.push(...(await e.statusLines!(session))));
  await eachContained(registered, of, session.sessionKey, logger, "extension status hook failed");
  return lines;
}

/**
 * Runs `hook` of every extension that has one, in order, each contained: a throw is logged as `failed` (with the
 * session it was about, if any).
 */
async function eachContained(
  registered: RegisteredExtensions,
  hook: (extension: GatewayExtension) => (() => unknown) | undefined,
  sessionKey: string | undefined,
  logger: Logger,
  failed: string,
): Promise<void> {
  for (const extension of registered.extensions) {
    const run = hook(extension);
    if (run === undefined) continue;
    try {
      await run();
    } catch (error) {
      const about = sessionKey === undefined ? {} : { sessionKey };
      logger.error({ extension: extension.name, ...about, error: describeError(error) }, failed);
    }
  }
}

/** Runs every extension's `afterTurn`, in order, each contained. Contract: never rejects. */
export function runAfterTurn(registered: RegisteredExtensions, turn: TurnCommitted, logger: Logger): Promise<void> {
  const hook = (extension: GatewayExtension) => extension.afterTurn && (() => extension.afterTurn?.(turn));
  return eachContained(registered, hook, turn.sessionKey, logger, "extension after-turn hook failed");
}

/** Runs every extension's `sessionIdle` (or `subagentEnded`), in order, each contained. Contract: never rejects. */
export function runSessionIdle(
  registered: RegisteredExtensions,
  session: { readonly sessionKey: string; readonly agentId: string },
  logger: Logger,
  name: "sessionIdle" | "subagentEnded" = "sessionIdle",
): Promise<void> {
  const hook = (extension: GatewayExtension) => extension[name] && (() => extension[name]?.(session));
  return eachContained(registered, hook, session.sessionKey, logger, `extension ${name} hook failed`);
}

/** Runs every extension's `sessionEnding`, in order, each contained. Contract: never rejects. */
export function runSessionEnding(
  registered: RegisteredExtensions,
  session: { readonly sessionKey: string; readonly agentId: string },
  logger: Logger,
): Promise<void> {
  const hook = (extension: GatewayExtension) => extension.sessionEnding && (() => extension.sessionEnding?.(session));
  return eachContained(registered, hook, session.sessionKey, logger, "extension session-ending hook failed");
}

/**
 * Starts the extensions in order, each with its own context (`contextFor`: its `atOwner` calls are its own). Contract: rejects with the first failure, after stopping the ones already started
 * (in reverse order).
 */
export async function startExtensions(
  registered: RegisteredExtensions,
  contextFor: (extension: GatewayExtension) => ExtensionStartContext,
  logger: Logger,
): Promise<void> {
  const started: RegisteredExtensions["extensions"][number][] = [];
  for (const extension of registered.extensions) {
    try {
      await extension.start?.(contextFor(extension));
      started.push(extension);
    } catch (error) {
      await stopExtensions({ ...registered, extensions: started }, logger);
      throw error;
    }
  }
}

/** Tells every extension of a change of the sessions this instance owns, in order, each contained. Never rejects. */
export function runOwnershipChanged(
  registered: RegisteredExtensions,
  change: OwnershipChange,
  logger: Logger,
): Promise<void> {
  const hook = (extension: GatewayExtension) =>
    extension.ownershipChanged && (() => extension.ownershipChanged?.(change));
  return eachContained(registered, hook, undefined, logger, "extension ownership hook failed");
}

/**
 * Runs a lifecycle hook of every extension, in order, each contained (`started` after the start, `stopping` when the
 * stop begins, `turnsOver` once the running turns ended). Contract: never rejects.
 */
export function runLifecycle(
  registered: RegisteredExtensions,
  name: "started" | "stopping" | "turnsOver",
  logger: Logger,
): Promise<void> {
  const hook = (extension: GatewayExtension) => extension[name] && (() => extension[name]?.());
  return eachContained(registered, hook, undefined, logger, `extension ${name} hook failed`);
}

/** Stops the extensions in reverse order, each contained. Contract: never rejects. */
export async function stopExtensions(registered: RegisteredExtensions, logger: Logger): Promise<void> {
  for (const extension of [...registered.extensions].reverse()) {
    try {
      await extension.stop?.();
    } catch (error) {
      logger.error({ extension: extension.name, error: describeError(error) }, "extension did not stop cleanly");
    }
  }
}
