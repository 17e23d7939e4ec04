import type { AgentMessage, UserMessage } from "../../messages/message-types.js";

/**
 * Adds the restoration text to a compacted transcript: as a further text block of its first message when that is a
 * user message (the summary), else as a new first user message — so roles still alternate.
 * Contract: returns a new array; the messages given are not mutated.
 */
export function attachRestoration(messages: readonly AgentMessage[], text: string): AgentMessage[] {
  const first = messages[0] as AgentMessage | undefined;
  if (first !== undefined && (first as { role?: string }).role === "user") {
    const user = first as UserMessage;
    const content = typeof user.content === "string" ? [{ type: "text" as const, text: user.content }] : user.content;
    return [{ ...user, content: [...content, { type: "text", text }] }, ...messages.slice(1)];
  }
  return [{ role: "user", content: text, timestamp: Date.now() }, ...messages];
}
