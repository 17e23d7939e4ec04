import type { Channel, OutboundButton, SessionChat } from "@chorus/channel";
import type { SessionStore } from "@chorus/store";
import type { ChatNotices } from "../delivery/chat-notices.js";
import type { SessionChats } from "../extension/index.js";
import { sessionChatOf } from "../routing/session-chat-of.js";

/**
 * Sessions' chats as extensions see them: a post goes through the gateway's chat notices (stored, delivered through
 * the outbox), buttons only where the session's channel shows them.
 */
export function extensionChats(
  store: SessionStore,
  notices: ChatNotices,
  channelFor: (channel: string, accountId: string) => Channel | undefined,
): SessionChats {
  const chatOf = async (sessionKey: string): Promise<SessionChat | undefined> => {
    const session = await store.getSession(sessionKey);
    return session === undefined ? undefined : sessionChatOf(session);
  };
  const showsButtons = (chat: SessionChat): boolean =>
    channelFor(chat.channel, chat.accountId)?.capabilities.buttons === true;
  return {
    async post(sessionKey: string, text: string, buttons?: readonly OutboundButton[]) {
      const chat = await chatOf(sessionKey);
      if (chat === undefined) return;
      await notices.post(sessionKey, chat, text, buttons !== undefined && showsButtons(chat) ? { buttons } : undefined);
    },
    async sendFiles(sessionKey, files, text = "") {
      const chat = await chatOf(sessionKey);
      if (chat === undefined) return undefined;
      return notices.post(sessionKey, chat, text, { files });
    },
    async maxUploadBytes(sessionKey: string) {
      const chat = await chatOf(sessionKey);
      const channel = chat === undefined ? undefined : channelFor(chat.channel, chat.accountId);
      return channel?.sendFile === undefined ? undefined : channel.capabilities.maxUploadBytes;
    },
    async hasButtons(sessionKey: string) {
      const chat = await chatOf(sessionKey);
      return chat !== undefined && showsButtons(chat);
    },
  };
}
