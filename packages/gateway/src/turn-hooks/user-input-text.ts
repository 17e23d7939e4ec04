import type { AgentMessage } from "@chorus/core";

/** The text a user sent in these messages (string content or text blocks), joined by line breaks. */
export function userInputText(messages: readonly AgentMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    const m = message as { role?: string; content?: unknown };
    if (m.role !== "user") continue;
    if (typeof m.content === "string") parts.push(m.content);
    else if (Array.isArray(m.content)) {
      for (const block of m.content as { type?: string; text?: string }[]) {
        if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
      }
    }
  }
  return parts.join("\n");
}
