import type { InboundMessage } from "@chorus/channel";

/**
 * Counts bot messages in a row per chat, so that two bots cannot keep answering each other forever.
 * A message from a person resets its chat; our own messages neither count nor reset.
 * Contract: remembers at most `maxChats` chats (least recently seen forgotten first).
 */
export class BotLoopBrake {
  readonly #hops = new Map<string, number>();
  readonly #maxChats: number;

  constructor(options: { maxChats?: number } = {}) {
    this.#maxChats = options.maxChats ?? 10_000;
  }

  /**
   * Records a message and returns the bot hops in its chat, this message included (0 for a person's message).
   * Contract: pass the result to decideInbound as `botHops`.
   */
  observe(
    message: Pick<InboundMessage, "channel" | "accountId" | "chatId" | "threadId" | "sender">,
    selfId: string,
  ): number {
    const key = `${message.channel}\u0000${message.accountId}\u0000${message.chatId}\u0000${message.threadId ?? ""}`;
    const previous = this.#hops.get(key) ?? 0;
    if (message.sender.id === selfId) return previous;
    const hops = message.sender.isBot ? previous + 1 : 0;
    this.#hops.delete(key);
    this.#hops.set(key, hops);
    if (this.#hops.size > this.#maxChats) this.#hops.delete(this.#hops.keys().next().value as string);
    return hops;
  }
}
