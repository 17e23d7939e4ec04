import type { AgentMessage } from "../../messages/message-types.js";
import { estimateMessageTokens } from "../token-estimate.js";

/** What a transcript gained since the last refresh: the seed's two trigger measures and whether it is at a break. */
export interface SessionMemoryProgress {
  readonly tokens: number;
  readonly toolCalls: number;
  /** The last assistant message called no tools: the agent finished answering (Claude Code's natural break). */
  readonly naturalBreak: boolean;
}

/** When a refresh is due (seed 004: TRIGGER_TOKEN_THRESHOLD, TRIGGER_TOOL_CALL_THRESHOLD). */
export interface SessionMemoryTriggers {
  readonly minTokens: number;
  readonly minToolCalls: number;
}

/** The progress of the messages from `from` on. Contract: pure. */
export function progressFrom(messages: readonly AgentMessage[], from: number): SessionMemoryProgress {
  let tokens = 0;
  let toolCalls = 0;
  let naturalBreak = false;
  for (let i = Math.max(0, from); i < messages.length; i++) {
    const message = messages[i] as AgentMessage;
    tokens += estimateMessageTokens(message);
    const m = message as { role?: string; content?: unknown };
    if (m.role !== "assistant") continue;
    const calls = Array.isArray(m.content)
      ? (m.content as { type: string }[]).filter((block) => block.type === "toolCall").length
      : 0;
    toolCalls += calls;
    naturalBreak = calls === 0;
  }
  return { tokens, toolCalls, naturalBreak };
}

/**
 * Whether a refresh is due: the token threshold passed and either the tool-call threshold too (the seed's trigger),
 * or the agent is at a natural break (a pure chat never reaches ten tool calls; Claude Code refreshes there too).
 * Contract: pure.
 */
export function isRefreshDue(progress: SessionMemoryProgress, triggers: SessionMemoryTriggers): boolean {
  if (progress.tokens < triggers.minTokens) return false;
  return progress.toolCalls >= triggers.minToolCalls || progress.naturalBreak;
}
