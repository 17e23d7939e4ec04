import type { OutboundButton, SessionChat } from "@chorus/channel";
import type { OutboxEntry, SessionStore } from "@chorus/store";
import { describeError, type GatewayLogger } from "../logging/gateway-logger.js";
import { activeTraceparent } from "../telemetry/traceparent.js";
import { asChatPayload, type ChatDeliveryPayload } from "./outbox-payloads.js";

/** What a posted request carries besides its text, for restart recovery. */
export interface PostOptions {
  readonly buttons?: readonly OutboundButton[];
  /** The run the request belongs to. */
  readonly runId?: string;
  /** What the message says instead if a restart interrupts the run before the request is settled. */
  readonly settleOnRestart?: string;
}

/** What a notice carries besides its text: buttons, the run it belongs to, and payload fields for edits and restarts. */
export type NoticeOptions = PostOptions &
  Pick<ChatDeliveryPayload, "editMessageIds" | "editSentAt" | "editOnly" | "settles" | "files">;

/** What notices need from the gateway. */
export interface ChatNoticesDeps {
  store: SessionStore;
  logger: GatewayLogger;
  /** Hands queued entries to the outbox dispatcher. */
  deliver(entries: readonly OutboxEntry[]): void;
  track(work: Promise<unknown>): void;
}

/**
 * The gateway's own messages to a chat (command answers, pairing, restarts, approvals), queued in the outbox like
 * replies, with the traceparent of the span active when it was queued (see `activeTraceparent`). Contract: `post` never
 * rejects; a notice that cannot be queued is logged.
 */
export class ChatNotices {
  readonly #deps: ChatNoticesDeps;

  constructor(deps: ChatNoticesDeps) {
    this.#deps = deps;
  }

  /** Queues a notice and delivers it. Contract: resolves with its outbox entry's id once queued; never rejects. */
  post(sessionKey: string, chat: SessionChat, text: string, options: NoticeOptions = {}): Promise<number | undefined> {
    const { buttons, runId, ...extra } = options;
    const payload = { ...noticePayload(chat, text, buttons), ...extra };
    // The span that queued it (a command message's inbound span), so a retried send stays in its trace.
    const traceparent = activeTraceparent();
    const entry = {
      sessionKey,
      kind: "notice" as const,
      payload,
      ...(runId === undefined ? {} : { runId }),
      ...(traceparent === undefined ? {} : { traceparent }),
    };
    const queued = this.#deps.store.enqueueOutbox([entry]).then(
      (entries) => {
        this.#deps.deliver(entries);
        return entries[0]?.id;
      },
      (error: unknown) => {
        this.#deps.logger.error({ sessionKey, error: describeError(error) }, "could not queue a notice");
        return undefined;
      },
    );
    this.#deps.track(queued);
    return queued;
  }

  /**
   * Changes a delivered notice's text in place, without its buttons: a new notice that edits the messages the first
   * went out as. A notice not delivered (yet) is left alone — nothing on the platform to change.
   */
  replace(posted: Promise<number | undefined>, text: string): void {
    const replaced = posted.then(async (id) => {
      const entry = id === undefined ? undefined : await this.#deps.store.getOutboxEntry(id);
      const payload = entry === undefined ? undefined : asChatPayload(entry.payload);
      if (entry?.status !== "sent" || payload === undefined || entry.platformMessageIds.length === 0) return;
      const chat = { channel: payload.channel, accountId: payload.accountId, target: payload.target };
      await this.post(entry.sessionKey, chat, text, {
        editMessageIds: entry.platformMessageIds,
        // When it went out (it was marked sent right after), for platforms' edit windows.
        editSentAt: entry.platformMessageIds.map(() => entry.updatedAt),
        editOnly: true,
        settles: entry.id,
      });
    });
    this.#deps.track(
      replaced.catch((error: unknown) =>
        this.#deps.logger.warn({ error: describeError(error) }, "could not settle a notice"),
      ),
    );
  }
}

/** The outbox payload of a notice to a session's chat. */
export function noticePayload(
  chat: SessionChat,
  text: string,
  buttons?: readonly OutboundButton[],
): ChatDeliveryPayload {
  return {
    channel: chat.channel,
    accountId: chat.accountId,
    target: chat.target,
    text,
    ...(buttons === undefined ? {} : { buttons }),
  };
}
