import type { AgentMessage } from "../messages/message-types.js";

const IMAGE_TOKENS = 1200;
const cache = new WeakMap<object, number>();

/**
 * A rough token count of one message (≈ 4 characters per token, images 1 200).
 * Contract: messages with tool calls or many blocks are cached per object (never mutate a
 * message after estimating it); plain ones are cheap enough to count each time.
 */
export function estimateMessageTokens(message: AgentMessage): number {
  const m = message as { content?: unknown };
  if (typeof m.content === "string") return Math.ceil(m.content.length / 4) + 4;
  const cached = cache.get(message);
  if (cached !== undefined) return cached;
  let chars = 0;
  let images = 0;
  let costly = false;
  if (Array.isArray(m.content)) {
    costly = m.content.length > 4;
    for (const block of m.content as {
      type: string;
      text?: string;
      thinking?: string;
      arguments?: unknown;
      name?: string;
    }[]) {
      if (block.type === "text") chars += block.text?.length ?? 0;
      else if (block.type === "thinking") chars += block.thinking?.length ?? 0;
      else if (block.type === "toolCall")
        chars += JSON.stringify(block.arguments ?? {}).length + (block.name?.length ?? 0);
      else if (block.type === "image") images++;
    }
  } else {
    chars = JSON.stringify(message).length;
    costly = true;
  }
  const tokens = Math.ceil(chars / 4) + images * IMAGE_TOKENS + 4;
  if (costly) cache.set(message, tokens);
  return tokens;
}

/** A rough token count of a transcript plus an optional system prompt. */
export function estimateTokens(messages: readonly AgentMessage[], systemPrompt?: string): number {
  let total = systemPrompt ? Math.ceil(systemPrompt.length / 4) : 0;
  for (const m of messages) total += estimateMessageTokens(m);
  return total;
}
