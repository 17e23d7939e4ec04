import type { AgentMessage, Message } from "../../src/index.js";

/** Role and first text of each message of a request, for readable assertions. */
export function outline(messages: readonly (Message | AgentMessage)[]): string[] {
  return messages.map((m) => {
    const msg = m as { role: string; content: unknown; toolCallId?: string };
    if (typeof msg.content === "string") return `${msg.role}: ${msg.content.split("\n")[0]}`;
    const blocks = msg.content as { type: string; text?: string; name?: string; id?: string }[];
    const parts = blocks.map((b) => (b.type === "toolCall" ? `call ${b.name}#${b.id}` : (b.text ?? b.type)));
    return `${msg.role}${msg.toolCallId ? `#${msg.toolCallId}` : ""}: ${parts.join(" | ")}`;
  });
}

/** Every text of a request joined, to look for a word anywhere in it. */
export function allText(messages: readonly (Message | AgentMessage)[]): string {
  return JSON.stringify(messages);
}
