import type { WebchatMessage } from "./webchat-protocol.js";

/**
 * The recent messages of each WebChat chat, so a reloaded page shows the conversation (the session store keeps
 * the transcript; this is only what the page displays).
 * Contract: at most `limit` messages per chat, oldest dropped first.
 */
export class WebchatHistory {
  readonly #chats = new Map<string, WebchatMessage[]>();
  readonly #limit: number;

  constructor(limit = 200) {
    this.#limit = limit;
  }

  add(chatId: string, message: WebchatMessage): void {
    const list = this.#chats.get(chatId) ?? [];
    list.push(message);
    if (list.length > this.#limit) list.splice(0, list.length - this.#limit);
    this.#chats.set(chatId, list);
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

  has(chatId: string, id: string): boolean {
    return this.#chats.get(chatId)?.some((message) => message.id === id) ?? false;
  }

  list(chatId: string): readonly WebchatMessage[] {
    return this.#chats.get(chatId) ?? [];
  }
}
