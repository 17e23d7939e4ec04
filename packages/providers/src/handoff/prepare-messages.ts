import type { AssistantContent, AssistantMessage, Message, Model } from "@chorus/core";
import { normalizeToolCallId } from "./tool-call-id.js";

/** What to do with reasoning the target model cannot take (another provider's, or unsigned). */
export type ThinkingHandoff = "drop" | "text";

/**
 * Makes a transcript safe to send to `target`, whichever provider wrote it.
 * Contract: pure (returns new messages); thinking is replayed verbatim only to the same
 * provider, api and model that produced it, otherwise dropped or turned into text; redacted
 * thinking never crosses providers; tool-call ids (and their results') are rewritten to what
 * `target.api` accepts; failed or aborted assistant turns are left out.
 */
export function prepareMessagesFor(
  target: Pick<Model, "id" | "api" | "provider">,
  messages: readonly Message[],
  thinking: ThinkingHandoff = "drop",
): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      out.push(message);
    } else if (message.role === "toolResult") {
      out.push({ ...message, toolCallId: normalizeToolCallId(message.toolCallId, target.api) });
    } else {
      if (message.stopReason === "error" || message.stopReason === "aborted") continue;
      const content = convertAssistantContent(message, target, thinking);
      if (content.length > 0) out.push({ ...message, content });
    }
  }
  return out;
}

function convertAssistantContent(
  message: AssistantMessage,
  target: Pick<Model, "id" | "api" | "provider">,
  thinking: ThinkingHandoff,
): AssistantContent[] {
  const sameModel = message.api === target.api && message.provider === target.provider && message.model === target.id;
  const out: AssistantContent[] = [];
  for (const block of message.content) {
    if (block.type === "toolCall") {
      out.push({ ...block, id: normalizeToolCallId(block.id, target.api) });
    } else if (block.type === "thinking") {
      if (sameModel && block.signature) out.push(block);
      else if (thinking === "text" && !block.redacted && block.thinking.trim()) {
        out.push({ type: "text", text: `<thinking>\n${block.thinking}\n</thinking>` });
      }
    } else if (block.text.length > 0) {
      out.push(block);
    }
  }
  return out;
}
