import type { AgentMessage } from "@chorus/core";

/** The visible text of an assistant message (its text blocks, joined). Contract: "" for other messages. */
export function assistantText(message: AgentMessage): string {
  const m = message as { role?: string; content?: unknown };
  if (m.role !== "assistant" || !Array.isArray(m.content)) return "";
  let text = "";
  for (const block of m.content as { type?: string; text?: string }[]) {
    if (block.type === "text" && typeof block.text === "string") text += block.text;
  }
  return text;
}

/** Whether an assistant message asks for tools (so its run goes on). */
export function hasToolCalls(message: AgentMessage | undefined): boolean {
  const m = message as { role?: string; content?: unknown } | undefined;
  return (
    m?.role === "assistant" &&
    Array.isArray(m.content) &&
    (m.content as { type?: string }[]).some((block) => block.type === "toolCall")
  );
}

/** The ids of an assistant message's tool calls, in order. Contract: empty for any other message. */
export function toolCallIds(message: AgentMessage | undefined): string[] {
  if (!hasToolCalls(message)) return [];
  const blocks = (message as { content: { type?: string; id?: string }[] }).content;
  return blocks.flatMap((block) => (block.type === "toolCall" && block.id !== undefined ? [block.id] : []));
}
