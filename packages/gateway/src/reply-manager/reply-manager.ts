import type { Channel, SendTarget, SentMessage } from "@chorus/channel";
import { renderReplyChunks } from "@chorus/channel";
import type { AgentEvent } from "@chorus/core";
import { assistantText } from "./assistant-text.js";
import { retryNotice } from "./failure-notice.js";

/** How a run's replies reach the chat: `preview` streams by editing a message; `block` sends each finished block. */
export type ReplyMode = "preview" | "block";

/** Options of one run's reply manager. */
export interface ReplyManagerOptions {
  channel: Channel;
  target: SendTarget;
  mode: ReplyMode;
  /** Sends a plain notice (through the outbox) — e.g. a rate-limit retry. */
  notify(text: string): void;
  now?: () => number;
  /** How often typing is re-sent while the run works. Default 4000 ms. */
  typingIntervalMs?: number;
  /**
   * How long a run works before typing is first shown. Default 800 ms. A reply ready sooner costs no typing call
   * (no Slack reaction to add and remove), which saves the platform's rate-limit budget; 0 shows typing at once.
   */
  typingDelayMs?: number;
  /** Told each time a preview message reached the platform (the first one is the turn's first reply chunk). */
  onChunkSent?: () => void;
}

/**
 * The chat side of one run: shows typing while it works (from `typingDelayMs` on, so a quick reply costs no typing
 * call), tells the user plainly when the provider is retrying, and in preview mode streams the current assistant
 * message by editing one message per chunk — each message no faster than the channel's editRate — rolling over to a
 * new message at the length limit.
 * Preview edits are ephemeral UI: the final text leaves through the outbox, which edits these messages in place
 * (see `takePreview`). Contract: never throws into the agent; platform failures of previews and typing are ignored.
 */
export class ReplyManager {
  readonly #o: ReplyManagerOptions;
  readonly #now: () => number;
  readonly #interval: number;
  #typingTimer: ReturnType<typeof setInterval> | undefined;
  #typingDelay: ReturnType<typeof setTimeout> | undefined;
  #previewTimer: ReturnType<typeof setTimeout> | undefined;
  #chain: Promise<void> = Promise.resolve();
  #text = "";
  #ids: string[] = [];
  /** Every preview message sent, by id: edits pass the platform's own sent time (Discord's 1-hour edit window). */
  readonly #sent = new Map<string, SentMessage>();
  #shown: string[] = [];
  readonly #lastEditAt = new Map<string, number>();
  #noticeSent = false;
  #typingShown = false;
  #closed = false;

  constructor(options: ReplyManagerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    const rate = options.channel.capabilities.editRate;
    this.#interval = Math.ceil(rate.perMs / Math.max(1, rate.edits));
  }

  /** Whether previews are streamed (preview mode on a channel that can edit). */
  get previewing(): boolean {
    return this.#o.mode === "preview" && this.#o.channel.capabilities.edit && this.#o.channel.edit !== undefined;
  }

  /** Feed every agent event of the run. */
  onEvent(event: AgentEvent): void {
    if (this.#closed) return;
    switch (event.type) {
      case "agent_start":
        this.#startTyping();
        break;
      case "message_update": {
        if (!this.previewing) break;
        const text = assistantText(event.message);
        if (text !== this.#text) {
          this.#text = text;
          this.#schedule();
        }
        break;
      }
      case "retry": {
        const notice = retryNotice(event);
        // One notice per run is enough; repeating it on every attempt is noise.
        if (notice !== undefined && !this.#noticeSent) {
          this.#noticeSent = true;
          this.#o.notify(notice);
        }
        // The failed attempt's partial text is discarded: the preview restarts with the next attempt.
        this.#text = "";
        break;
      }
      default:
        break;
    }
  }

  /**
   * Ends the preview of the current assistant message and returns its messages (for the final delivery to edit
   * in place, with their sent times), after pending preview edits finished and each message may be edited again.
   * Contract: the next assistant message starts a fresh preview.
   */
  takePreview(): Promise<SentMessage[]> {
    if (this.#previewTimer !== undefined) clearTimeout(this.#previewTimer);
    this.#previewTimer = undefined;
    const ids = this.#ids;
    const pending = this.#chain;
    this.#ids = [];
    this.#shown = [];
    this.#text = "";
    return pending.then(async () => {
      const waitMs = Math.max(
        0,
        ...ids.map((id) => (this.#lastEditAt.get(id) ?? -Infinity) + this.#interval - this.#now()),
      );
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      return ids.map((id) => this.#sent.get(id) ?? ref(this.#o.target, id, 0));
    });
  }

  /**
   * Stops typing and previews. With previews shown the final answer arrives as an edit, which does not end a typing
   * indication that lasts until removed (Slack's working reaction): it is ended here. Contract: idempotent.
   */
  close(): void {
    if (!this.#closed && this.#typingShown && this.#sent.size > 0) {
      const { channel, target } = this.#o;
      void channel.stopTyping?.(target).catch(() => {});
    }
    this.#closed = true;
    if (this.#typingTimer !== undefined) clearInterval(this.#typingTimer);
    if (this.#typingDelay !== undefined) clearTimeout(this.#typingDelay);
    if (this.#previewTimer !== undefined) clearTimeout(this.#previewTimer);
    this.#typingTimer = undefined;
    this.#typingDelay = undefined;
    this.#previewTimer = undefined;
  }

  #startTyping(): void {
    const { channel } = this.#o;
    if (!channel.capabilities.typing || channel.typing === undefined) return;
    if (this.#typingTimer !== undefined || this.#typingDelay !== undefined) return;
    const delayMs = this.#o.typingDelayMs ?? 800;
    if (delayMs <= 0) {
      this.#showTyping();
      return;
    }
    this.#typingDelay = setTimeout(() => {
      this.#typingDelay = undefined;
      if (!this.#closed) this.#showTyping();
    }, delayMs);
    this.#typingDelay.unref?.();
  }

  #showTyping(): void {
    const { channel, target } = this.#o;
    const typing = (): void => void channel.typing?.(target).catch(() => {});
    this.#typingShown = true;
    typing();
    this.#typingTimer = setInterval(typing, this.#o.typingIntervalMs ?? 4000);
    this.#typingTimer.unref?.();
  }

  #schedule(): void {
    if (this.#previewTimer !== undefined || this.#closed) return;
    const last = this.#ids.at(-1);
    const delay = last === undefined ? 0 : (this.#lastEditAt.get(last) ?? 0) + this.#interval - this.#now();
    this.#previewTimer = setTimeout(
      () => {
        this.#previewTimer = undefined;
        this.#chain = this.#chain.then(() => this.#render()).catch(() => {});
      },
      Math.max(0, delay),
    );
  }

  async #render(): Promise<void> {
    // Captured now: takePreview may hand these to the final delivery while this render is under way.
    const ids = this.#ids;
    const shown = this.#shown;
    const text = this.#text;
    if (this.#closed || text.trim() === "") return;
    const { channel, target } = this.#o;
    let chunks: string[];
    try {
      chunks = renderReplyChunks(text, channel.capabilities);
    } catch {
      return;
    }
    let deferred = false;
    for (let i = 0; i < chunks.length; i++) {
      const chunk = chunks[i]!;
      const id = ids[i];
      if (id === undefined) {
        const sent = await channel.send(target, { text: chunk });
        this.#o.onChunkSent?.();
        this.#sent.set(sent.messageId, sent);
        ids.push(sent.messageId);
        shown.push(chunk);
        this.#lastEditAt.set(sent.messageId, this.#now());
        continue;
      }
      if (shown[i] === chunk) continue;
      if ((this.#lastEditAt.get(id) ?? -Infinity) + this.#interval > this.#now()) {
        deferred = true;
        continue;
      }
      this.#lastEditAt.set(id, this.#now());
      await channel.edit?.(this.#sent.get(id) ?? ref(target, id, 0), { text: chunk });
      shown[i] = chunk;
    }
    if (deferred && ids === this.#ids) this.#schedule();
  }
}

function ref(target: SendTarget, messageId: string, sentAt: number): SentMessage {
  const sent = { messageId, chatId: target.chatId, sentAt };
  return target.threadId === undefined ? sent : { ...sent, threadId: target.threadId };
}
