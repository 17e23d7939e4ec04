import type { AgentMessage, ToolResultMessage } from "@chorus/core";
import type { SessionStore } from "@chorus/store";

/** The result a tool call gets when its process died while the tool ran. */
export const RESTART_TOOL_RESULT =
  "The gateway restarted while this tool was running; whether it finished is unknown. Check before repeating it.";

/**
 * Synthetic error results for the tool calls of the transcript's last assistant message that have none (their
 * process died mid-tool). Contract: pure; empty when every call of that message has its result.
 */
export function missingToolResults(messages: readonly AgentMessage[], now: number): ToolResultMessage[] {
  let last = -1;
  for (let i = messages.length - 1; i >= 0 && last < 0; i--) if (messages[i]?.role === "assistant") last = i;
  if (last < 0) return [];
  const content = (messages[last] as { content?: unknown }).content;
  if (!Array.isArray(content)) return [];
  const answered = new Set<string>();
  for (const message of messages.slice(last + 1)) {
    if (message.role === "toolResult") answered.add(message.toolCallId);
  }
  const missing: ToolResultMessage[] = [];
  for (const block of content as { type?: string; id?: string; name?: string }[]) {
    if (block.type !== "toolCall" || block.id === undefined || answered.has(block.id)) continue;
    missing.push({
      role: "toolResult",
      toolCallId: block.id,
      toolName: block.name ?? "",
      content: [{ type: "text", text: RESTART_TOOL_RESULT }],
      isError: true,
      timestamp: now,
    });
  }
  return missing;
}

/**
 * Repairs a session whose run was interrupted by a crash: appends a synthetic result for each tool call left
 * without one, so the stored transcript is consistent again. Contract: returns how many results were appended.
 */
export async function repairInterruptedTranscript(
  store: SessionStore,
  sessionKey: string,
  now: number,
): Promise<number> {
  const entries = await store.readTranscript(sessionKey);
  const missing = missingToolResults(
    entries.map((entry) => entry.message),
    now,
  );
  if (missing.length > 0) await store.appendMessages(sessionKey, missing);
  return missing.length;
}
