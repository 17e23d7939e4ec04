import type { SessionChat } from "@chorus/channel";
import type { SessionRecord } from "@chorus/store";
import { parseSessionKeyOrThrow } from "@chorus/store";

/**
 * Where a root session's replies go, from its record and key (the key carries the thread).
 * Contract: throws SessionKeyError for a sub-agent or malformed key.
 */
export function sessionChatOf(session: SessionRecord): SessionChat {
  const key = parseSessionKeyOrThrow(session.key);
  if (key.kind === "subagent") throw new TypeError(`${session.key} is a sub-agent session; it has no chat`);
  const base = { channel: session.channel, accountId: session.accountId };
  if (key.kind === "dm") return { ...base, target: { chatType: "dm", chatId: session.chatId } };
  const target =
    key.threadId === undefined
      ? { chatType: "group" as const, chatId: key.groupId }
      : { chatType: "group" as const, chatId: key.groupId, threadId: key.threadId };
  return { ...base, target };
}
