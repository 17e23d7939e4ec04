import type { SeenToolResult } from "./scenario.js";

/** The part of a pi-ai or Chorus message the scripted model reads. */
interface TranscriptEntry {
  role: string;
  toolName?: string;
  content?: string | ReadonlyArray<{ type: string; text?: string }>;
}

/**
 * The tool results after the last user message, in transcript order: what the scripted
 * model answers from. Works on pi-ai and Chorus messages alike (same field names).
 */
export function seenToolResults(messages: readonly TranscriptEntry[]): SeenToolResult[] {
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") {
      start = i + 1;
      break;
    }
  }
  const seen: SeenToolResult[] = [];
  for (const message of messages.slice(start)) {
    if (message.role !== "toolResult" || typeof message.content === "string") continue;
    const text = (message.content ?? []).map((part) => part.text ?? "").join("");
    seen.push({ toolName: message.toolName ?? "", text });
  }
  return seen;
}
