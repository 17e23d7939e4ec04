/**
 * Messages kept per channel in arrival order, with O(1) lookup by message id.
 * Contract: `add` appends; `get` and `update` find a message by id without scanning.
 */
export class ConversationStore<M> {
  readonly #byChannel = new Map<string, M[]>();
  readonly #byId = new Map<string, M>();

  add(channelId: string, messageId: string, message: M): void {
    let list = this.#byChannel.get(channelId);
    if (!list) {
      list = [];
      this.#byChannel.set(channelId, list);
    }
    list.push(message);
    this.#byId.set(`${channelId}/${messageId}`, message);
  }

  get(channelId: string, messageId: string): M | undefined {
    return this.#byId.get(`${channelId}/${messageId}`);
  }

  /** Marks a message deleted: it stays in the id index but leaves the channel history. */
  remove(channelId: string, messageId: string): M | undefined {
    const key = `${channelId}/${messageId}`;
    const message = this.#byId.get(key);
    if (message === undefined) return undefined;
    this.#byId.delete(key);
    const list = this.#byChannel.get(channelId);
    if (list) {
      const index = list.lastIndexOf(message);
      if (index >= 0) list.splice(index, 1);
    }
    return message;
  }

  /** Copy of one channel's messages, oldest first. */
  history(channelId: string): M[] {
    return [...(this.#byChannel.get(channelId) ?? [])];
  }

  /**
   * The newest message of a channel that `matches`, looking back from the newest while `stillRecent` holds (messages
   * are in arrival order, so the first one too old ends the search). Contract: copies nothing.
   */
  findNewest(channelId: string, matches: (message: M) => boolean, stillRecent: (message: M) => boolean): M | undefined {
    const list = this.#byChannel.get(channelId) ?? [];
    for (let i = list.length - 1; i >= 0; i--) {
      const message = list[i] as M;
      if (!stillRecent(message)) return undefined;
      if (matches(message)) return message;
    }
    return undefined;
  }

  channels(): string[] {
    return [...this.#byChannel.keys()];
  }
}
