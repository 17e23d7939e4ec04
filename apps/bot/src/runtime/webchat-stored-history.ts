import {
  type GatewayConfig,
  type InboundMessage,
  resolveAgent,
  type SessionStore,
  sessionKeyForInbound,
} from "@chorus/gateway";
import { guestName } from "../webchat/browser-identity.js";
import { GROUP_CHAT_ID, type WebchatMessage, type WebchatRoom } from "../webchat/webchat-protocol.js";
import { transcriptToWebchat } from "../webchat/webchat-transcript.js";

/** How many stored messages of each chat a page loads. */
const PAGE_HISTORY_LIMIT = 200;

/**
 * A WebChat browser's stored conversation: its own DM session and the group session, each routed to its agent as
 * the Gateway routes a message from that browser, read from the session store.
 * Contract: only the DM session of `publicId` (never another browser's); the latest 200 messages of each chat,
 * oldest first; a chat with no session gives nothing.
 */
export async function readWebchatHistory(
  store: SessionStore,
  config: GatewayConfig,
  accountId: string,
  publicId: string,
): Promise<WebchatMessage[]> {
  const chats: { room: WebchatRoom; chatId: string }[] = [
    { room: "dm", chatId: publicId },
    { room: "group", chatId: GROUP_CHAT_ID },
  ];
  const messages: WebchatMessage[] = [];
  for (const { room, chatId } of chats) {
    const message: Pick<InboundMessage, "channel" | "accountId" | "chatType" | "chatId" | "sender"> = {
      channel: "webchat",
      accountId,
      chatType: room,
      chatId,
      sender: { id: publicId, name: guestName(publicId), isBot: false },
    };
    const { agentId } = resolveAgent(config, message);
    const entries = await store.readTranscript(sessionKeyForInbound(agentId, message));
    const shown = transcriptToWebchat(entries, {
      room,
      ...(room === "dm" ? { dmSender: { id: publicId, name: guestName(publicId) } } : {}),
    });
    messages.push(...shown.slice(-PAGE_HISTORY_LIMIT));
  }
  return messages.sort((a, b) => a.at - b.at);
}
