import type { SessionChat } from "@chorus/channel";
import type { AgentEvent, Model } from "@chorus/core";
import type { SessionStore } from "@chorus/store";
import type { ChatNotices } from "../delivery/chat-notices.js";

/** Text of the status line while a compaction runs. */
export const COMPACTING_TEXT = "🗜️ Compacting the conversation to make room…";

/** What the status line says once a compaction saved tokens. */
export function compactedText(before: number, after: number): string {
  const saved = Math.max(0, before - after);
  return `🗜️ Compacted the conversation: ~${kilo(before)} → ~${kilo(after)} tokens (saved ~${kilo(saved)}).`;
}

/** What the status line says when the compaction failed. */
export const COMPACTION_FAILED_TEXT = "🗜️ Could not compact the conversation; carrying on with it as it is.";

/** What the status line says, once, as the context nears its compaction (core's `context_warning`, seed 004). */
export function contextWarningText(tokens: number, window: number): string {
  return `📈 Context ${Math.floor((tokens / window) * 100)}% full — older messages will be summarised soon.`;
}

/** What the status line says when the loop moves on to a fallback model (core's `model_fallback`, seed 004). */
export const modelFallbackText = (e: { from: Model; to: Model; reason: string }): string =>
  `🔀 ${e.from.id} did not answer (${e.reason.split(":", 1)[0]}); continuing with ${e.to.id}.`;
/** How the status line reaches the chat. */
export interface StatusLineOutlet {
  /** Posts a message; resolves with a handle to edit it (undefined when it could not be posted). */
  post(text: string): Promise<number | undefined>;
  /** Changes a posted message in place (or, when it is not on the platform yet, posts the text). */
  replace(posted: Promise<number | undefined>, text: string): void;
  /** Whether the platform edits messages; if not, the outcome is a second message. */
  readonly canEdit: boolean;
}

/**
 * The chat side of seed 002's compaction progress UX: a line when a hard compaction starts, turned into what it
 * saved (or that it failed) when it ends; a line of its own for the loop's one warning before a compaction, and one
 * for each move to a fallback model. Contract: one line per compaction, warning or fallback; others ignored; never throws.
 */
export class CompactionStatusLine {
  readonly #outlet: StatusLineOutlet;
  #posted: Promise<number | undefined> | undefined;

  constructor(outlet: StatusLineOutlet) {
    this.#outlet = outlet;
  }

  onEvent(event: AgentEvent): void {
    if (event.type === "compaction_start") this.#posted = this.#outlet.post(COMPACTING_TEXT);
    else if (event.type === "context_warning") void this.#outlet.post(contextWarningText(event.tokens, event.window));
    else if (event.type === "model_fallback") void this.#outlet.post(modelFallbackText(event));
    else if (event.type === "compaction_failed") this.#end(COMPACTION_FAILED_TEXT);
    else if (event.type === "compaction" && event.kind === "summary") {
      this.#end(compactedText(event.tokensBefore, event.tokensAfter));
    }
  }

  #end(text: string): void {
    const posted = this.#posted;
    this.#posted = undefined;
    if (posted !== undefined && this.#outlet.canEdit) this.#outlet.replace(posted, text);
    else void this.#outlet.post(text);
  }
}

function kilo(tokens: number): string {
  return tokens >= 10_000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
}

/** A turn's compaction status line in the session's chat; undefined without notices that can be posted. */
export function sessionStatusLine(
  deps: {
    readonly notices?: Pick<ChatNotices, "post" | "replace"> | undefined;
    readonly store: Pick<SessionStore, "getOutboxEntry">;
    track(work: Promise<unknown>): void;
  },
  sessionKey: string,
  chat: SessionChat,
  canEdit: boolean,
): CompactionStatusLine | undefined {
  const notices = deps.notices;
  if (notices === undefined) return undefined;
  return new CompactionStatusLine(noticeOutlet(notices, deps.store, sessionKey, chat, canEdit, deps.track));
}

/**
 * A status-line outlet over the gateway's notices. A compaction faster than the delivery of its first line would
 * leave nothing to edit: then the outcome goes out as a message of its own instead of being lost.
 */
export function noticeOutlet(
  notices: Pick<ChatNotices, "post" | "replace">,
  store: Pick<SessionStore, "getOutboxEntry">,
  sessionKey: string,
  chat: SessionChat,
  canEdit: boolean,
  track: (work: Promise<unknown>) => void,
): StatusLineOutlet {
  const post = (text: string): Promise<number | undefined> => notices.post(sessionKey, chat, text);
  return {
    canEdit,
    post,
    replace: (posted, text) => {
      track(
        posted.then(async (id) => {
          const entry = id === undefined ? undefined : await store.getOutboxEntry(id).catch(() => undefined);
          if (entry?.status === "sent" && entry.platformMessageIds.length > 0) notices.replace(posted, text);
          else await post(text);
        }),
      );
    },
  };
}
