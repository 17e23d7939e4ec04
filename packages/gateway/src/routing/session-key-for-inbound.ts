import type { InboundMessage } from "@chorus/channel";
import { formatSessionKey } from "@chorus/store";

/**
 * The session a message belongs to: one per DM peer (never shared between people), one per group, one per thread.
 * Contract: the same agent, account, channel and chat always give the same key; throws SessionKeyError only for
 * ids that cannot appear in a key (e.g. an empty chat id).
 */
export function sessionKeyForInbound(
  agentId: string,
  message: Pick<InboundMessage, "channel" | "accountId" | "chatType" | "chatId" | "threadId" | "sender">,
): string {
  const { channel, accountId } = message;
  if (message.chatType === "dm") {
    return formatSessionKey({ kind: "dm", agentId, accountId, channel, peerId: message.sender.id });
  }
  const group = { kind: "group", agentId, accountId, channel, groupId: message.chatId } as const;
  return formatSessionKey(message.threadId === undefined ? group : { ...group, threadId: message.threadId });
}
