import type { ToolCall } from "../messages/content.js";
import type { AgentMessage, UserMessage } from "../messages/message-types.js";

type MaybePromise<T> = T | Promise<T>;

/** One piece of context for the model (seed 004 "System Reminder Injection"): its kind and its text. */
export interface Reminder {
  /** e.g. "changed_files", "todo_reminders", "time_passed", "approval_outcome". */
  kind: string;
  text: string;
}

/** An approval a chat user gave or refused since the last reminders were attached. */
export interface ApprovalOutcome {
  toolCall: ToolCall;
  approved: boolean;
  reason?: string;
}

/** What a reminder source sees before a model call. */
export interface ReminderContext {
  /** The transcript so far (the newest user prompt included). Read only. */
  readonly messages: readonly AgentMessage[];
  readonly turn: number;
  /** Approvals answered since the previous collection. */
  readonly approvals: readonly ApprovalOutcome[];
  readonly signal: AbortSignal;
}

/** Produces reminders before a model call; may keep its own state (what it already said). */
export type ReminderSource = (context: ReminderContext) => MaybePromise<Reminder[]>;

/** System reminders of a run. Off unless `sources` has one. */
export interface RemindersConfig {
  sources: ReminderSource[];
  /** All sources together get this long; a late or failing one adds nothing. Default 1000 ms (ATTACHMENT_TIMEOUT). */
  timeoutMs?: number;
}

/**
 * The transcript entry the reminders of one model call become: seed 004's `isMeta` user message,
 * one `<system-reminder>` text block per reminder. Appended at the end of the transcript and kept
 * there, so every later request carries it byte for byte (the cache prefix holds). `isMeta` lets
 * a UI tell it from the person's words.
 */
export interface SystemReminderMessage extends UserMessage {
  isMeta: true;
  /** The kinds of the reminders, in block order. */
  reminderKinds: string[];
}
