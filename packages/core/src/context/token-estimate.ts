import type { AgentMessage } from "../messages/message-types.js";
import type { LlmTool } from "../stream/stream-fn.js";

const IMAGE_TOKENS = 1200;
/** A PDF page costs roughly this (text plus its page image, as Anthropic counts it); a page is ~60 KB of PDF. */
const DOCUMENT_TOKENS_PER_PAGE = 1500;
const PDF_BYTES_PER_PAGE = 60_000;
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
      data?: string;
      mimeType?: string;
      kind?: string;
      sizeBytes?: number;
    }[]) {
      if (block.type === "text") chars += block.text?.length ?? 0;
      else if (block.type === "thinking") chars += block.thinking?.length ?? 0;
      else if (block.type === "toolCall")
        chars += JSON.stringify(block.arguments ?? {}).length + (block.name?.length ?? 0);
      else if (block.type === "image") images++;
      else if (block.type === "document") chars += documentChars(((block.data?.length ?? 0) * 3) / 4);
      else if (block.type === "attachment") chars += attachmentChars(block);
    }
  } else {
    chars = JSON.stringify(message).length;
    costly = true;
  }
  const tokens = Math.ceil(chars / 4) + images * IMAGE_TOKENS + 4;
  if (costly) cache.set(message, tokens);
  return tokens;
}

/** An attachment is counted as what it becomes for the model: an image, a document, or a transcript's text. */
function attachmentChars(block: { mimeType?: string; kind?: string; sizeBytes?: number; name?: string }): number {
  const type = block.mimeType ?? "";
  if (block.kind === "image" || block.kind === "sticker" || type.startsWith("image/")) return IMAGE_TOKENS * 4;
  if (type === "application/pdf") return documentChars(block.sizeBytes ?? PDF_BYTES_PER_PAGE);
  // Voice (a transcript), text files and anything listed by name: counted at a page's worth, capped like a file read.
  return Math.min(block.sizeBytes ?? 400, 16_000) + (block.name?.length ?? 0);
}

function documentChars(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / PDF_BYTES_PER_PAGE)) * DOCUMENT_TOKENS_PER_PAGE * 4;
}

/** Per transcript, keyed by its first message: the messages estimated last time (a private copy) and their total. */
const lastEstimates = new WeakMap<object, { messages: AgentMessage[]; tokens: number }>();

/**
 * A rough token count of a transcript plus an optional system prompt.
 * Contract: the sum of `estimateMessageTokens` over `messages`; messages are never mutated once estimated. A
 * transcript that only grew since it was last estimated costs a pointer comparison per earlier message and an
 * estimate per new one — the agent loop estimates the whole transcript before every model call, so without this a
 * long session paid for every message on every turn. A short transcript is simply counted.
 */
export function estimateTokens(messages: readonly AgentMessage[], systemPrompt?: string): number {
  return (systemPrompt ? Math.ceil(systemPrompt.length / 4) : 0) + transcriptTokens(messages);
}

/**
 * Below this many messages a transcript is counted afresh: that costs less than the bookkeeping, which also left a
 * WeakMap entry (and a copy of the array) behind every short run until the next full GC.
 */
const SHORT_TRANSCRIPT = 8;

function transcriptTokens(messages: readonly AgentMessage[]): number {
  if (messages.length < SHORT_TRANSCRIPT) {
    let tokens = 0;
    for (let i = 0; i < messages.length; i++) tokens += estimateMessageTokens(messages[i] as AgentMessage);
    return tokens;
  }
  const first = messages[0] as AgentMessage;
  const last = lastEstimates.get(first);
  const grown = last !== undefined && isPrefix(last.messages, messages);
  let tokens = grown ? last.tokens : 0;
  const from = grown ? last.messages.length : 0;
  for (let i = from; i < messages.length; i++) tokens += estimateMessageTokens(messages[i] as AgentMessage);
  if (grown) {
    for (let i = from; i < messages.length; i++) last.messages.push(messages[i] as AgentMessage);
    last.tokens = tokens;
  } else {
    lastEstimates.set(first, { messages: messages.slice(), tokens });
  }
  return tokens;
}

/** Whether `messages` starts with exactly the messages of `prefix` (the same objects, in order). */
function isPrefix(prefix: readonly AgentMessage[], messages: readonly AgentMessage[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let i = prefix.length - 1; i >= 0; i--) if (prefix[i] !== messages[i]) return false;
  return true;
}

/** Per tools array: what its definitions cost in a request. */
const toolsEstimates = new WeakMap<readonly LlmTool[], number>();

/**
 * A rough token count of the tool definitions a request carries (name, description and JSON Schema, ≈ 4 characters
 * per token): they count against the context window like the messages (seed 003 step 8: messages + system + tools).
 * Contract: cached per tools array — never change an array's tools after estimating it; 0 without tools.
 */
export function estimateToolTokens(tools: readonly LlmTool[] | undefined): number {
  if (tools === undefined || tools.length === 0) return 0;
  let tokens = toolsEstimates.get(tools);
  if (tokens === undefined) {
    tokens = 0;
    for (const tool of tools) {
      const chars = tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
      tokens += Math.ceil(chars / 4) + 4;
    }
    toolsEstimates.set(tools, tokens);
  }
  return tokens;
}
