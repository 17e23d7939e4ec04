import { AttachmentFetchError } from "@chorus/channel";
import type { ExtensionStartContext, GatewayExtension, SessionChats } from "../extension/index.js";
import { findChosenModel, restoredModelChoice } from "../model-preference/model-preference.js";
import { extensionAtOwner } from "./extension-owner-calls.js";
import type { GatewayContext } from "./gateway-context.js";
import { newSessionHere } from "./session-actions-here.js";

/**
 * What each extension gets at start, from the gateway's context: its shared parts, and `atOwner` bound to the
 * extension's name (its calls are answered by its own `answerAtOwner` at the session's owner).
 */
export function extensionStartContext(
  ctx: () => GatewayContext,
  chats: SessionChats,
  owns: (sessionKey: string) => boolean,
): (extension: GatewayExtension) => ExtensionStartContext {
  return (extension) => {
    const context = ctx();
    const { agents, options } = context;
    return {
      config: context.config,
      store: context.store,
      streamFn: context.streamFn,
      chats,
      now: context.now,
      logger: context.logger,
      track: context.track,
      owns,
      findModel: (id) => options.models.find(id),
      channelRunning: (channel, accountId) => context.channelFor(channel, accountId) !== undefined,
      fetchAttachment: async (source, fetchOptions) => {
        const channel = context.channelFor(source.channel, source.accountId);
        if (channel === undefined) {
          throw new AttachmentFetchError("network", `no channel ${source.channel}/${source.accountId} is running`);
        }
        if (channel.fetchAttachment === undefined) {
          throw new AttachmentFetchError("unsupported", `the ${source.channel} channel downloads no files`);
        }
        const location = { id: source.id, chatId: source.chatId, messageId: source.messageId };
        return channel.fetchAttachment(
          source.url === undefined ? location : { ...location, url: source.url },
          fetchOptions,
        );
      },
      sessionModel: (session) => {
        const prepared = agents.get(session.agentId) ?? agents.values().next().value!;
        const chosen = restoredModelChoice(prepared.config, session, options.models);
        return findChosenModel(options.models, chosen) ?? prepared.defaultModel;
      },
      sessions: {
        accept: (session, item) => context.sessions.runtimeFor(session).accept(item),
        stopTurn: (sessionKey, reason) => void context.sessions.get(sessionKey)?.stop("user", reason),
        withdraw: (sessionKey, which) => context.sessions.get(sessionKey)?.lane.withdraw(which) ?? 0,
        startFresh: async (sessionKey) => {
          await newSessionHere(context, sessionKey);
        },
      },
      atOwner: extensionAtOwner(ctx, extension.name),
    };
  };
}
