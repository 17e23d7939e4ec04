import type { ToolCall } from "../../messages/content.js";
import type { AgentMessage, ToolResultMessage } from "../../messages/message-types.js";

/** A tool call and its result, both in the transcript. */
export interface ToolPair {
  readonly call: ToolCall;
  readonly result: ToolResultMessage;
}

/**
 * Every tool call of the transcript that has its result, in transcript order. Contract: pure; a call without a result
 * (still running, or cut off) and a result without its call are left out.
 */
export function finishedToolPairs(messages: readonly AgentMessage[]): ToolPair[] {
  const calls = new Map<string, ToolCall>();
  const pairs: ToolPair[] = [];
  for (const message of messages) {
    const m = message as { role: string; content?: unknown };
    if (m.role === "assistant" && Array.isArray(m.content)) {
      for (const block of m.content as { type: string }[]) {
        if (block.type === "toolCall") calls.set((block as ToolCall).id, block as ToolCall);
      }
    } else if (m.role === "toolResult") {
      const result = message as ToolResultMessage;
      const call = calls.get(result.toolCallId);
      if (call !== undefined) pairs.push({ call, result });
    }
  }
  return pairs;
}

/** The ids of every tool call in the transcript. */
export function toolCallIds(messages: readonly AgentMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    const m = message as { role: string; content?: unknown };
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    for (const block of m.content as { type: string; id?: string }[]) {
      if (block.type === "toolCall" && block.id !== undefined) ids.add(block.id);
    }
  }
  return ids;
}
