import type { OutboundButton, SendTarget } from "@chorus/channel";
import type { TrustTier } from "@chorus/store";

/**
 * A file an outbox entry sends after its text: kept on disk at `path` by whoever queued it (the media extension's
 * spool) until the entry is sent, never its bytes in the outbox.
 */
export interface OutboxFile {
  readonly path: string;
  readonly name: string;
  /** Sniffed from the bytes when queued. */
  readonly mimeType: string;
  readonly sizeBytes: number;
  /** Show it as a photo where the platform tells photos from documents. */
  readonly asPhoto: boolean;
  readonly caption?: string;
}

/**
 * What a `reply` or `notice` outbox entry carries: Markdown for one chat, rendered and chunked at delivery time.
 * `editMessageIds` are preview messages already on the platform: the final chunks replace them in place.
 */
export interface ChatDeliveryPayload {
  readonly channel: string;
  readonly accountId: string;
  readonly target: SendTarget;
  readonly text: string;
  readonly editMessageIds?: readonly string[];
  /** When each of `editMessageIds` was sent (epoch ms), so edits honour platforms' edit windows. */
  readonly editSentAt?: readonly number[];
  /** Buttons under the last message (channels with `capabilities.buttons`; others ignore them). */
  readonly buttons?: readonly OutboundButton[];
  /**
   * Only change `editMessageIds` in place: a part that has no message to edit, or whose message is gone or too old
   * to edit, is dropped instead of sent anew (a settled approval request, say, must not arrive twice).
   */
  readonly editOnly?: boolean;
  /**
   * What this message says instead if a restart interrupts its run before it is settled (an approval request): at
   * start it is changed to this, without buttons, or, never delivered yet, not delivered at all.
   */
  readonly settleOnRestart?: string;
  /** The outbox entry whose message this edit settles: restart recovery leaves that one alone. */
  readonly settles?: number;
  /** Files sent after the text, each as its own message (see OutboxFile). */
  readonly files?: readonly OutboxFile[];
}

/** What a `subagent-result` outbox entry carries: a background child's result for its parent session. */
export interface SubagentResultPayload {
  readonly childRunId: string;
  readonly childSessionKey?: string;
  readonly agent: string;
  readonly label?: string;
  readonly status: string;
  readonly text: string;
  /** The tier of the run that spawned it; the parent's follow-up turn runs with it. */
  readonly trust: TrustTier;
}

/** Reads a chat payload back from JSON. Contract: undefined when the shape is wrong. */
export function asChatPayload(value: unknown): ChatDeliveryPayload | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<ChatDeliveryPayload>;
  if (typeof v.channel !== "string" || typeof v.accountId !== "string" || typeof v.text !== "string") return undefined;
  if (typeof v.target !== "object" || v.target === null || typeof v.target.chatId !== "string") return undefined;
  return v as ChatDeliveryPayload;
}

/** Reads a sub-agent result payload back from JSON. Contract: undefined when the shape is wrong. */
export function asSubagentResultPayload(value: unknown): SubagentResultPayload | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<SubagentResultPayload>;
  if (typeof v.childRunId !== "string" || typeof v.text !== "string" || typeof v.agent !== "string") return undefined;
  return v as SubagentResultPayload;
}
