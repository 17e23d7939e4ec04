import {
  describeAttachment,
  type LlmTool,
  type Message,
  type Model,
  type StreamContext,
  type StreamOptions,
  type UserContent,
} from "@chorus/core";
import type OpenAI from "openai";
import { prepareMessagesFor } from "../handoff/prepare-messages.js";
import { documentFilename, documentOmitted, omittedPartText, readsDocuments } from "../handoff/user-parts.js";
import type { ChatCompat } from "./chat-compat.js";

type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsStreaming;
type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.ChatCompletionFunctionTool;

/** One entry per tool definition, so `chatRequestJson` can keep each entry's JSON (tools never change). */
const chatTools = new WeakMap<LlmTool, ChatTool>();

function chatTool(tool: LlmTool): ChatTool {
  let entry = chatTools.get(tool);
  if (entry === undefined) {
    entry = {
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    };
    chatTools.set(tool, entry);
  }
  return entry;
}

/**
 * Builds the Chat Completions request for one call, following the server's compat settings.
 * Contract: the result type-checks against the SDK's own streaming request type.
 */
export function buildChatRequest(
  model: Model,
  context: StreamContext,
  options: StreamOptions | undefined,
  compat: ChatCompat,
): ChatParams {
  const messages: ChatMessage[] = [];
  if (context.systemPrompt) {
    const role = compat.systemRole === "developer" && model.capabilities.thinking ? "developer" : "system";
    messages.push({ role, content: context.systemPrompt });
  }
  messages.push(...toChatMessages(prepareMessagesFor(model, context.messages), model));
  const request: ChatParams = { model: model.id, messages, stream: true };
  if (compat.streamUsage) request.stream_options = { include_usage: true };
  if (context.tools && context.tools.length > 0) request.tools = context.tools.map(chatTool);
  const maxTokens = options?.maxTokens;
  if (maxTokens !== undefined) {
    if (compat.maxTokensField === "max_tokens") request.max_tokens = maxTokens;
    else request.max_completion_tokens = maxTokens;
  }
  if (options?.reasoning && compat.reasoningEffort && model.capabilities.thinking) {
    request.reasoning_effort = options.reasoning;
  } else if (options?.temperature !== undefined) {
    request.temperature = options.temperature;
  }
  if (options?.sessionId && compat.maxTokensField === "max_completion_tokens") {
    request.prompt_cache_key = options.sessionId;
  }
  return request;
}

function toChatMessages(messages: readonly Message[], model: Model): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      // No empty text part is sent to any provider; a user message with nothing readable is left out.
      const parts =
        typeof message.content === "string"
          ? message.content
          : message.content.filter((part) => part.type !== "text" || part.text.trim() !== "");
      if (parts.length === 0 || (typeof parts === "string" && parts.trim() === "")) continue;
      if (typeof parts === "string") out.push({ role: "user", content: parts });
      else {
        out.push({
          role: "user",
          content: parts.map((part) => chatPart(part, model)),
        });
      }
    } else if (message.role === "toolResult") {
      const text = message.content.map((p) => (p.type === "text" ? p.text : omittedPartText(p))).join("\n");
      out.push({ role: "tool", tool_call_id: message.toolCallId, content: text });
    } else {
      // Chat Completions cannot take reasoning back: thinking blocks are not sent.
      const text = message.content
        .filter((b) => b.type === "text")
        .map((b) => b.text)
        .join("");
      const calls = message.content.filter((b) => b.type === "toolCall");
      const assistant: OpenAI.Chat.ChatCompletionAssistantMessageParam = { role: "assistant", content: text || null };
      if (calls.length > 0) {
        assistant.tool_calls = calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }));
      }
      if (text || calls.length > 0) out.push(assistant);
    }
  }
  return out;
}

/** One user part as Chat Completions takes it: a document is a `file` part with its bytes as a data URL. */
function chatPart(part: UserContent, model: Model): OpenAI.Chat.ChatCompletionContentPart {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return { type: "image_url", image_url: { url: `data:${part.mimeType};base64,${part.data}` } };
    case "document":
      if (!readsDocuments(model)) return { type: "text", text: documentOmitted(part) };
      return {
        type: "file",
        file: { filename: documentFilename(part), file_data: `data:${part.mimeType};base64,${part.data}` },
      };
    case "attachment":
      return { type: "text", text: describeAttachment(part) };
  }
}
