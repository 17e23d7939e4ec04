import type { Channel, OutboundButton } from "../channel/channel-types.js";
import type { ChatNotices } from "../delivery/chat-notices.js";
import type { SessionChats } from "../extension/index.js";
import { sessionChatOf } from "../routing/session-chat-of.js";
import type { SessionStore } from "../store/session-store.js";

/**
 * Sessions' chats as extensions see them: a post goes through the gateway's chat notices (stored, delivered through
 * the outbox), buttons only where the session's channel shows them.
 */
export function extensionChats(
  store: SessionStore,
  notices: ChatNotices,
  channelFor: (channel: string, accountId: string) => Channel | undefined,
): SessionChats {
  return {
    async post(sessionKey: string, text: string, buttons?: readonly OutboundButton[]) {
      const session = await store.getSession(sessionKey);
      if (session === undefined) return;
      const chat = sessionChatOf(session);
      const shown = buttons !== undefined && channelFor(chat.channel, chat.accountId)?.capabilities.buttons === true;
      await notices.post(sessionKey, chat, text, shown ? { buttons } : undefined);
    },
    async hasButtons(sessionKey: string) {
      const session = await store.getSession(sessionKey);
      if (session === undefined) return false;
      const chat = sessionChatOf(session);
      return channelFor(chat.channel, chat.accountId)?.capabilities.buttons === true;
    },
  };
}
