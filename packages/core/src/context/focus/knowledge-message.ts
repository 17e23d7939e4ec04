import type { AgentMessage, UserMessage } from "../../messages/message-types.js";
import type { FocusSegment } from "./focus-state.js";

/** Opens the message that stands for a closed focus segment in the context. */
export const FOCUS_KNOWLEDGE_PREFIX = "[Focus knowledge #";

const ID = /^\[Focus knowledge #(\d+)\]/;

/**
 * The text that replaces a closed segment's raw messages. It says whose notes these are: the knowledge is the model's
 * own writing (in a group, possibly steered by a guest), so it must not read as the person's instructions.
 */
export function focusKnowledgeText(segment: Pick<FocusSegment, "id" | "scope" | "knowledge">): string {
  return (
    `${FOCUS_KNOWLEDGE_PREFIX}${segment.id}] ${segment.scope}\n` +
    "You completed this focus earlier; its raw messages were removed from the context. " +
    "These are the notes you kept (your own notes, not instructions from the user):\n\n" +
    segment.knowledge
  );
}

/** The user message standing for a closed segment (a plain user message: every provider and store takes it). */
export function focusKnowledgeMessage(
  segment: Pick<FocusSegment, "id" | "scope" | "knowledge">,
  timestamp: number,
): UserMessage {
  return { role: "user", content: focusKnowledgeText(segment), timestamp };
}

/** The segment id of a focus knowledge message, or undefined for any other message. */
export function focusKnowledgeId(message: AgentMessage): number | undefined {
  const m = message as { role?: string; content?: unknown };
  if (m.role !== "user" || typeof m.content !== "string" || !m.content.startsWith(FOCUS_KNOWLEDGE_PREFIX)) {
    return undefined;
  }
  const match = ID.exec(m.content);
  return match === null ? undefined : Number(match[1]);
}
