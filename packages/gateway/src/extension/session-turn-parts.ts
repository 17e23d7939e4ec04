import type { AgentMessage, AnyAgentTool } from "@chorus/core";
import { describeError } from "../logging/gateway-logger.js";
import type { CommitSideWrites } from "../reply-manager/commit-side-writes.js";
import type { ExtensionStartContext, SessionAgentParts, SessionAgentStart } from "./gateway-extension.js";
import type { RegisteredExtensions } from "./registered-extensions.js";

type Logger = ExtensionStartContext["logger"];

/**
 * The tools a session's turn is offered after every extension's `sessionTools`, in order (each narrows what the one
 * before left). Contract: undefined when no extension changed them; a throwing hook is logged and changes nothing.
 */
export function sessionToolsOf(
  registered: RegisteredExtensions,
  sessionKey: string,
  tools: readonly AnyAgentTool[],
  logger: Logger,
): readonly AnyAgentTool[] | undefined {
  let offered: readonly AnyAgentTool[] | undefined;
  for (const extension of registered.extensions) {
    if (extension.sessionTools === undefined) continue;
    try {
      offered = extension.sessionTools(sessionKey, offered ?? tools) ?? offered;
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey, error: describeError(error) },
        "extension session-tools hook failed; the turn keeps its tools",
      );
    }
  }
  return offered;
}

/**
 * What every extension adds to a session's Agent as it is built, in extension order. Contract: a throwing hook is
 * logged and adds nothing (the session still runs).
 */
export function sessionAgentPartsOf(
  registered: RegisteredExtensions,
  start: SessionAgentStart,
  logger: Logger,
): SessionAgentParts[] {
  const parts: SessionAgentParts[] = [];
  for (const extension of registered.extensions) {
    try {
      const part = extension.sessionAgent?.(start);
      if (part !== undefined) parts.push(part);
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey: start.sessionKey, error: describeError(error) },
        "extension session-agent hook failed; the session runs without its parts",
      );
    }
  }
  return parts;
}

/**
 * Every extension's writes for one commit of a session's turn, joined: each part runs inside the transaction where it
 * can, and hears whether its own writes were inside a committed transaction. Contract: undefined when no extension
 * has writes; a hook that throws while gathering is logged and adds nothing (the commit goes on); a write that throws
 * inside the transaction fails the commit, and every part hears `failed`.
 */
export function commitWritesOf(
  registered: RegisteredExtensions,
  sessionKey: string,
  messages: readonly AgentMessage[],
  logger: Logger,
): CommitSideWrites | undefined {
  const parts: CommitSideWrites[] = [];
  for (const extension of registered.extensions) {
    if (extension.commitWrites === undefined) continue;
    try {
      const part = extension.commitWrites(sessionKey, messages);
      if (part !== undefined) parts.push(part);
    } catch (error) {
      logger.error(
        { extension: extension.name, sessionKey, error: describeError(error) },
        "extension commit-writes hook failed; the turn commits without its writes",
      );
    }
  }
  if (parts.length <= 1) return parts[0];
  const wrote = parts.map(() => false);
  const sync = parts.some((part) => part.writes.sync !== undefined);
  const onClient = parts.some((part) => part.writes.onClient !== undefined);
  return {
    writes: {
      ...(sync
        ? {
            sync: (connection: unknown) => {
              parts.forEach((part, index) => {
                wrote[index] = part.writes.sync?.(connection) ?? false;
              });
              return wrote.some(Boolean);
            },
          }
        : {}),
      ...(onClient
        ? {
            onClient: async (client: unknown) => {
              for (const [index, part] of parts.entries())
                wrote[index] = (await part.writes.onClient?.(client)) ?? false;
              return wrote.some(Boolean);
            },
          }
        : {}),
    },
    committed: (sideWritten) => {
      parts.forEach((part, index) => {
        part.committed(sideWritten && (wrote[index] ?? false));
      });
    },
    failed: () => {
      for (const part of parts) part.failed();
    },
  };
}
