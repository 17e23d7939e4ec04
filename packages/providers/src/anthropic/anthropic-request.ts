import type Anthropic from "@anthropic-ai/sdk";
import {
  type DocumentContent,
  describeAttachment,
  type Message,
  type Model,
  type StreamContext,
  type StreamOptions,
  type ToolResultMessage,
  type UserContent,
  type UserMessage,
} from "@chorus/core";
import { prepareMessagesFor, type ThinkingHandoff } from "../handoff/prepare-messages.js";
import { documentOmitted, readsDocuments } from "../handoff/user-parts.js";
import { pickCacheTier } from "./cache-tier.js";

/** Where prompt-cache breakpoints go (seed 004). Every one is on by default. */
export interface AnthropicCacheOptions {
  system?: boolean;
  tools?: boolean;
  lastUserMessage?: boolean;
  /**
   * Cache lifetime; "1h" costs more to write. "auto" (seed 003 step 15): "1h" once the request's estimated
   * input clears the 1024-token caching minimum, else "5m". Default "5m".
   */
  ttl?: "5m" | "1h" | "auto";
}

/** Thinking budgets in tokens for each reasoning level. */
const thinkingBudgets = { minimal: 1024, low: 2048, medium: 8192, high: 16_384 } as const;

/**
 * Builds the Messages API request for one call.
 * Contract: the result type-checks against the SDK's own streaming request type.
 */
export function buildAnthropicRequest(
  model: Model,
  context: StreamContext,
  options: StreamOptions | undefined,
  cache: AnthropicCacheOptions | false,
  thinkingHandoff: ThinkingHandoff,
): Anthropic.MessageCreateParamsStreaming {
  const messages = toAnthropicMessages(prepareMessagesFor(model, context.messages, thinkingHandoff), model);
  const tools = context.tools?.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters as Anthropic.Tool.InputSchema,
  }));
  const system = context.systemPrompt ? [{ type: "text" as const, text: context.systemPrompt }] : undefined;
  const ttl =
    cache === false ? undefined : cache.ttl === "auto" ? pickCacheTier({ system, tools, messages }) : cache.ttl;
  const cacheControl = (on: boolean | undefined): { cache_control?: Anthropic.CacheControlEphemeral } =>
    cache !== false && on !== false
      ? { cache_control: { type: "ephemeral", ...(ttl === "1h" ? { ttl: "1h" as const } : {}) } }
      : {};
  if (cache !== false && cache.lastUserMessage !== false) markLastUserMessage(messages, cacheControl(true));
  let maxTokens = options?.maxTokens ?? model.maxOutput;
  const request: Anthropic.MessageCreateParamsStreaming = {
    model: model.id,
    max_tokens: maxTokens,
    messages,
    stream: true,
  };
  if (system) request.system = [{ ...system[0]!, ...cacheControl(cache !== false && cache.system) }];
  if (tools && tools.length > 0) {
    const last = tools.length - 1;
    request.tools = tools.map((tool, i) => ({
      ...tool,
      ...(i === last ? cacheControl(cache !== false && cache.tools) : {}),
    }));
  }
  if (options?.reasoning && model.capabilities.thinking && thinkingAllowed(messages)) {
    const budget = thinkingBudgets[options.reasoning];
    // The budget must leave room for the answer.
    if (maxTokens <= budget) maxTokens = budget + 1024;
    request.max_tokens = maxTokens;
    request.thinking = { type: "enabled", budget_tokens: budget };
  }
  // This SDK's Messages API has no temperature parameter: StreamOptions.temperature is ignored here.
  if (options?.sessionId) request.metadata = { user_id: options.sessionId };
  return request;
}

function toAnthropicMessages(messages: readonly Message[], model: Model): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      // The API rejects an empty text block, and a user turn with no content (400): nothing readable, nothing sent.
      const blocks = userBlocks(message, model);
      if (blocks.length > 0) appendUser(out, blocks);
    } else if (message.role === "toolResult") {
      appendUser(out, [toolResultBlock(message, model)]);
    } else {
      const content: Anthropic.ContentBlockParam[] = [];
      for (const block of message.content) {
        if (block.type === "text") {
          if (!isBlank(block.text)) content.push({ type: "text", text: block.text });
        } else if (block.type === "thinking") {
          if (block.redacted) content.push({ type: "redacted_thinking", data: block.signature ?? "" });
          else content.push({ type: "thinking", thinking: block.thinking, signature: block.signature ?? "" });
        } else content.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments });
      }
      if (content.length > 0) out.push({ role: "assistant", content });
    }
  }
  return out;
}

/** Tool results must share one user turn (Anthropic rejects two user messages in a row). */
function appendUser(out: Anthropic.MessageParam[], blocks: Anthropic.ContentBlockParam[]): void {
  const last = out.at(-1);
  if (last?.role === "user") {
    const existing = typeof last.content === "string" ? [{ type: "text" as const, text: last.content }] : last.content;
    last.content = [...(existing as Anthropic.ContentBlockParam[]), ...blocks];
  } else {
    out.push({ role: "user", content: blocks });
  }
}

function isBlank(text: string): boolean {
  return text.trim() === "";
}

function userBlocks(message: UserMessage, model: Model): Anthropic.ContentBlockParam[] {
  if (typeof message.content === "string") {
    return isBlank(message.content) ? [] : [{ type: "text", text: message.content }];
  }
  const parts = message.content.filter((part) => part.type !== "text" || !isBlank(part.text));
  return parts.map((part) => contentBlock(part, model));
}

/** One user (or tool-result) part as the Messages API takes it. */
function contentBlock(
  part: UserContent,
  model: Model,
): Anthropic.TextBlockParam | Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return {
        type: "image",
        source: {
          type: "base64",
          media_type: part.mimeType as Anthropic.Base64ImageSource["media_type"],
          data: part.data,
        },
      };
    case "document":
      return documentBlock(part, model);
    case "attachment":
      // A file nobody resolved: the model reads what it is, never its bytes.
      return { type: "text", text: describeAttachment(part) };
  }
}

/** A PDF as a base64 document, a plain-text file as a text document; anything else is named in a line. */
function documentBlock(part: DocumentContent, model: Model): Anthropic.DocumentBlockParam | Anthropic.TextBlockParam {
  if (!readsDocuments(model)) return { type: "text", text: documentOmitted(part) };
  const title = part.name ? { title: part.name } : {};
  if (part.mimeType === "application/pdf") {
    return { type: "document", source: { type: "base64", media_type: "application/pdf", data: part.data }, ...title };
  }
  if (part.mimeType === "text/plain") {
    const text = Buffer.from(part.data, "base64").toString("utf8");
    return { type: "document", source: { type: "text", media_type: "text/plain", data: text }, ...title };
  }
  return { type: "text", text: documentOmitted(part, "Anthropic reads PDF and plain-text documents only") };
}

function toolResultBlock(message: ToolResultMessage, model: Model): Anthropic.ToolResultBlockParam {
  return {
    type: "tool_result",
    tool_use_id: message.toolCallId,
    is_error: message.isError,
    content: message.content
      .filter((part) => part.type !== "text" || !isBlank(part.text))
      .map((part) => contentBlock(part, model)),
  };
}

function markLastUserMessage(
  messages: Anthropic.MessageParam[],
  cacheControl: { cache_control?: Anthropic.CacheControlEphemeral },
): void {
  const last = messages.findLast((m) => m.role === "user");
  if (!last || typeof last.content === "string") return;
  const block = last.content.at(-1);
  if (block && "type" in block && block.type !== "thinking" && block.type !== "redacted_thinking") {
    Object.assign(block, cacheControl);
  }
}

/**
 * With thinking on, Anthropic requires the assistant turn that a tool result answers to begin
 * with a thinking block. A turn written by another provider (or without thinking) has none, so
 * thinking waits until the next user turn.
 */
function thinkingAllowed(messages: readonly Anthropic.MessageParam[]): boolean {
  const last = messages.at(-1);
  const answersTool =
    last?.role === "user" && typeof last.content !== "string" && last.content.some((b) => b.type === "tool_result");
  if (!answersTool) return true;
  const assistant = messages.findLast((m) => m.role === "assistant");
  if (!assistant || typeof assistant.content === "string") return false;
  const first = assistant.content[0];
  return first?.type === "thinking" || first?.type === "redacted_thinking";
}
