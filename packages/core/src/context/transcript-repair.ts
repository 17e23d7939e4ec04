import type { ToolResultMessage } from "../messages/message-types.js";

/** The smallest message shape repair needs; works on model messages and transcripts alike. */
type Msg = { role: string; content?: unknown; toolCallId?: string };

/** Text of the synthetic result given to a tool call that has none. */
export const MISSING_RESULT_TEXT = "Tool call has no result: it was interrupted before it completed.";

/**
 * Makes every tool call have exactly one result and every result have its call (seeds 002, 003):
 * a call without a result gets a synthetic error result right after its results; a result
 * whose call is gone (or that repeats one) is removed. Custom messages are left in place.
 * Contract: returns the input array itself when it is already consistent (the common case).
 */
export function repairTranscript<M extends Msg>(messages: M[]): M[] {
  if (isConsistent(messages)) return messages;
  const out: M[] = [];
  let open: Map<string, string> | undefined; // call id → tool name, of the last assistant message
  const flush = (): void => {
    if (!open) return;
    for (const [id, name] of open) out.push(syntheticResult(id, name) as unknown as M);
    open = undefined;
  };
  for (const m of messages) {
    if (m.role === "toolResult") {
      const id = m.toolCallId ?? "";
      if (open?.has(id)) {
        open.delete(id);
        out.push(m);
      }
      continue;
    }
    if (m.role === "user" || m.role === "assistant") flush();
    out.push(m);
    if (m.role === "assistant") {
      const calls = toolCalls(m);
      if (calls.length > 0) open = new Map(calls.map((c) => [c.id, c.name]));
    }
  }
  flush();
  return out;
}

function toolCalls(m: Msg): { id: string; name: string }[] {
  if (!Array.isArray(m.content)) return [];
  const calls: { id: string; name: string }[] = [];
  for (const block of m.content as { type: string; id?: string; name?: string }[]) {
    if (block.type === "toolCall") calls.push({ id: block.id ?? "", name: block.name ?? "" });
  }
  return calls;
}

/** Fast check without allocation: each assistant's calls are answered, in order, right after it. */
function isConsistent(messages: Msg[]): boolean {
  let i = 0;
  const n = messages.length;
  while (i < n) {
    const m = messages[i] as Msg;
    i++;
    if (m.role === "toolResult") return false;
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    for (const block of m.content as { type: string; id?: string }[]) {
      if (block.type !== "toolCall") continue;
      const next = messages[i];
      if (next?.role !== "toolResult" || next.toolCallId !== block.id) return false;
      i++;
    }
  }
  return true;
}

function syntheticResult(toolCallId: string, toolName: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName,
    content: [{ type: "text", text: MISSING_RESULT_TEXT }],
    isError: true,
    timestamp: Date.now(),
  };
}
