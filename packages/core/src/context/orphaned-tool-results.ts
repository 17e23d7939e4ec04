import type { AgentMessage } from "../messages/message-types.js";

/**
 * Removes every tool result whose tool call is no longer in the transcript (seed 002, "Hard Compaction
 * Post-Processing"): a provider rejects such a result (Anthropic 400, OpenAI 422).
 * Contract: silent; returns the input array itself when nothing is orphaned; other messages keep their order.
 */
export function stripOrphanedToolResults(messages: AgentMessage[]): AgentMessage[] {
  const callIds = new Set<string>();
  for (const m of messages) {
    const content = (m as { role: string; content?: unknown }).content;
    if ((m as { role: string }).role !== "assistant" || !Array.isArray(content)) continue;
    for (const block of content as { type: string; id?: string }[]) {
      if (block.type === "toolCall" && block.id !== undefined) callIds.add(block.id);
    }
  }
  const orphaned = (m: AgentMessage): boolean => {
    const r = m as { role: string; toolCallId?: string };
    return r.role === "toolResult" && !callIds.has(r.toolCallId ?? "");
  };
  return messages.some(orphaned) ? messages.filter((m) => !orphaned(m)) : messages;
}
