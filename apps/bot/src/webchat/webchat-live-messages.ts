import type { WebchatMessage } from "./webchat-protocol.js";

/**
 * The messages this process showed in each WebChat chat: what a page needs that the store does not have yet (a
 * reply still streaming, a command and its answer, which are not part of the transcript) and the message ids
 * edits and deletes refer to. The conversation itself is read from the session store.
 * Contract: bounded — at most `perChat` messages per chat (oldest dropped first) and `chats` chats (the least
 * recently used dropped first).
 */
export class WebchatLiveMessages {
  readonly #chats = new Map<string, WebchatMessage[]>();
  readonly #perChat: number;
  readonly #maxChats: number;

  constructor(limits: { perChat?: number; chats?: number } = {}) {
    this.#perChat = limits.perChat ?? 50;
    this.#maxChats = limits.chats ?? 500;
  }

  add(chatId: string, message: WebchatMessage): void {
    const list = this.#chats.get(chatId) ?? [];
    list.push(message);
    if (list.length > this.#perChat) list.splice(0, list.length - this.#perChat);
    this.#chats.delete(chatId); // re-inserted last: the most recently used
    this.#chats.set(chatId, list);
    if (this.#chats.size > this.#maxChats) {
      const oldest = this.#chats.keys().next().value;
      if (oldest !== undefined) this.#chats.delete(oldest);
    }
  }

  /** Replaces a message's text; false when it is not (or no longer) kept. */
  edit(chatId: string, id: string, text: string): boolean {
    const list = this.#chats.get(chatId);
    const index = list?.findIndex((message) => message.id === id) ?? -1;
    if (list === undefined || index < 0) return false;
    list[index] = { ...(list[index] as WebchatMessage), text };
    return true;
  }

  remove(chatId: string, id: string): boolean {
    const list = this.#chats.get(chatId);
    const index = list?.findIndex((message) => message.id === id) ?? -1;
    if (list === undefined || index < 0) return false;
    list.splice(index, 1);
    return true;
  }

  list(chatId: string): readonly WebchatMessage[] {
    return this.#chats.get(chatId) ?? [];
  }
}

/**
 * What a page shows: the stored conversation, plus the live messages the store does not hold (matched by role, text
 * and the ids of their files, each stored message standing for one live one), oldest first.
 * Contract: pure.
 */
export function mergeHistory(stored: readonly WebchatMessage[], live: readonly WebchatMessage[]): WebchatMessage[] {
  const unmatched = new Map<string, number>();
  for (const message of stored) {
    const key = matchKey(message);
    unmatched.set(key, (unmatched.get(key) ?? 0) + 1);
  }
  const extra = live.filter((message) => {
    const key = matchKey(message);
    const count = unmatched.get(key) ?? 0;
    if (count === 0) return true;
    unmatched.set(key, count - 1);
    return false;
  });
  return [...stored, ...extra].sort((a, b) => a.at - b.at);
}

function matchKey(message: WebchatMessage): string {
  const files = (message.files ?? []).map((file) => file.id).join(",");
  return `${message.room}\u0000${message.role}\u0000${message.text.trim()}\u0000${files}`;
}
