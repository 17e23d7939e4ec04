import type { AgentMessage } from "../../messages/message-types.js";

/**
 * The message a session-memory summary ends at, by position and by a fingerprint of it (role and timestamp), so a
 * transcript that moved since (a compaction, a fresh start) is noticed and the summary is not applied to it.
 */
export interface CoveredMessage {
  /** Its position in the transcript the summary was written from. */
  readonly index: number;
  readonly role: string;
  /** Its timestamp, or null for a custom message without one. */
  readonly timestamp: number | null;
}

/** A kept summary of a session's transcript up to and including `covered`. */
export interface SessionMemorySummary {
  readonly text: string;
  readonly covered: CoveredMessage;
}

/**
 * What tier-1 compaction reads (seed 004 "Session Memory Compact"): the kept summary, the minimum saving, and who to
 * tell when it was applied. `SessionMemory` is one; a host may give its own.
 */
export interface SessionMemorySource {
  /** The summary now, or undefined while there is none. */
  current(): SessionMemorySummary | undefined;
  /** Tier 1 runs only when it saves at least this many tokens. Default 10 000. */
  readonly minSavingsTokens?: number;
  /** Tier 1 replaced the covered messages with `part` in `messages` (the compacted transcript, restoration included). */
  applied?(messages: readonly AgentMessage[], part: AgentMessage): void;
}

/** The seed's session-memory constants: refresh triggers and tier 1's minimum saving. */
export const SESSION_MEMORY_DEFAULTS = {
  /** TRIGGER_TOKEN_THRESHOLD: new tokens since the last refresh. */
  minTokens: 5_000,
  /** TRIGGER_TOOL_CALL_THRESHOLD: tool calls since the last refresh. */
  minToolCalls: 10,
  /** SESSION_MEMORY_MIN_SAVINGS. */
  minSavingsTokens: 10_000,
} as const;

/** The fingerprint of the message at `index`. Contract: pure. */
export function coveredMessageAt(messages: readonly AgentMessage[], index: number): CoveredMessage {
  const message = messages[index] as { role?: string; timestamp?: unknown };
  const timestamp = typeof message.timestamp === "number" ? message.timestamp : null;
  return { index, role: String(message.role), timestamp };
}

/** Whether `messages` still hold the covered message where the summary left it. Contract: pure. */
export function stillCovers(covered: CoveredMessage, messages: readonly AgentMessage[]): boolean {
  if (covered.index < 0 || covered.index >= messages.length) return false;
  const now = coveredMessageAt(messages, covered.index);
  return now.role === covered.role && now.timestamp === covered.timestamp;
}
