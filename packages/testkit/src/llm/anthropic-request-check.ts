import type { WireErrorResponse } from "./wire-action.js";

type Block = { type?: unknown; text?: unknown; content?: unknown };

function emptyTextProblem(blocks: readonly Block[], path: string): string | undefined {
  for (const [index, block] of blocks.entries()) {
    if (block.type === "text" && typeof block.text === "string") {
      if (block.text === "") return `${path}.${index}.text: text content blocks must be non-empty`;
      if (block.text.trim() === "")
        return `${path}.${index}.text: text content blocks must contain non-whitespace text`;
    }
    if (block.type === "tool_result" && Array.isArray(block.content)) {
      const nested = emptyTextProblem(block.content as Block[], `${path}.${index}.content`);
      if (nested !== undefined) return nested;
    }
  }
  return undefined;
}

/**
 * The Messages API's own checks of a request's messages that Chorus must never trip: an empty or whitespace-only text
 * block, and a message with no content (the optional final assistant message aside). The real API answers 400
 * `invalid_request_error` before any generation, with messages like these.
 * Contract: undefined for a request the real API accepts on these points.
 */
export function anthropicRequestProblem(body: Record<string, unknown>): WireErrorResponse | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : [];
  for (const [index, message] of messages.entries()) {
    const last = index === messages.length - 1 && message.role === "assistant";
    const content = message.content;
    let problem: string | undefined;
    if (typeof content === "string") {
      if (content === "" && !last)
        problem = `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
    } else if (Array.isArray(content)) {
      if (content.length === 0 && !last) {
        problem = `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
      } else problem = emptyTextProblem(content as Block[], `messages.${index}.content`);
    }
    if (problem !== undefined) {
      return {
        status: 400,
        headers: { "request-id": "req_fake", "x-should-retry": "false" },
        body: { type: "error", error: { type: "invalid_request_error", message: problem }, request_id: "req_fake" },
      };
    }
  }
  return undefined;
}
