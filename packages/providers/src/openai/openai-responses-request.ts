import {
  type AssistantMessage,
  describeAttachment,
  type Message,
  type Model,
  type StreamContext,
  type StreamOptions,
  type UserContent,
} from "@chorus/core";
import type OpenAI from "openai";
import { prepareMessagesFor, type ThinkingHandoff } from "../handoff/prepare-messages.js";
import { documentFilename, documentOmitted, omittedPartText, readsDocuments } from "../handoff/user-parts.js";

type ResponsesParams = OpenAI.Responses.ResponseCreateParamsStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;

/**
 * Builds the Responses API request for one call: stateless (`store: false`), with reasoning
 * items replayed from their `encrypted_content`.
 * Contract: the result type-checks against the SDK's own streaming request type.
 */
export function buildResponsesRequest(
  model: Model,
  context: StreamContext,
  options: StreamOptions | undefined,
  thinkingHandoff: ThinkingHandoff,
): ResponsesParams {
  const request: ResponsesParams = {
    model: model.id,
    input: toInputItems(prepareMessagesFor(model, context.messages, thinkingHandoff), model),
    stream: true,
    store: false,
  };
  if (context.systemPrompt) request.instructions = context.systemPrompt;
  if (context.tools && context.tools.length > 0) {
    request.tools = context.tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
  }
  if (options?.maxTokens !== undefined) request.max_output_tokens = options.maxTokens;
  if (model.capabilities.thinking) {
    request.include = ["reasoning.encrypted_content"];
    if (options?.reasoning) request.reasoning = { effort: options.reasoning, summary: "auto" };
  } else if (options?.temperature !== undefined) {
    request.temperature = options.temperature;
  }
  if (options?.sessionId) request.prompt_cache_key = options.sessionId;
  return request;
}

function toInputItems(messages: readonly Message[], model: Model): InputItem[] {
  const out: InputItem[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      // No empty text part is sent to any provider; a user message with nothing readable is left out.
      const content: OpenAI.Responses.ResponseInputContent[] =
        typeof message.content === "string"
          ? message.content.trim() === ""
            ? []
            : [{ type: "input_text", text: message.content }]
          : message.content
              .filter((part) => part.type !== "text" || part.text.trim() !== "")
              .map((part) => inputPart(part, model));
      if (content.length > 0) out.push({ role: "user", content });
    } else if (message.role === "toolResult") {
      const text = message.content.map((p) => (p.type === "text" ? p.text : omittedPartText(p))).join("\n");
      out.push({ type: "function_call_output", call_id: message.toolCallId, output: text });
    } else {
      out.push(...assistantItems(message));
    }
  }
  return out;
}

/** One user part as the Responses API takes it: a document is an `input_file` with its bytes as a data URL. */
function inputPart(part: UserContent, model: Model): OpenAI.Responses.ResponseInputContent {
  switch (part.type) {
    case "text":
      return { type: "input_text", text: part.text };
    case "image":
      return { type: "input_image", image_url: `data:${part.mimeType};base64,${part.data}`, detail: "auto" };
    case "document":
      if (!readsDocuments(model)) return { type: "input_text", text: documentOmitted(part) };
      return {
        type: "input_file",
        filename: documentFilename(part),
        file_data: `data:${part.mimeType};base64,${part.data}`,
      };
    case "attachment":
      return { type: "input_text", text: describeAttachment(part) };
  }
}

function assistantItems(message: AssistantMessage): InputItem[] {
  const out: InputItem[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      const item = parseReasoningSignature(block.signature);
      if (item) out.push(item);
    } else if (block.type === "text") {
      out.push({ role: "assistant", content: block.text });
    } else {
      out.push({
        type: "function_call",
        call_id: block.id,
        name: block.name,
        arguments: JSON.stringify(block.arguments),
      });
    }
  }
  return out;
}

/**
 * A Responses reasoning item is stored whole, as JSON, in ThinkingContent.signature, so it can
 * go back exactly as received.
 */
export function reasoningSignature(item: OpenAI.Responses.ResponseReasoningItem): string {
  return JSON.stringify({
    type: "reasoning",
    id: item.id,
    summary: item.summary,
    encrypted_content: item.encrypted_content ?? null,
  });
}

function parseReasoningSignature(signature: string | undefined): OpenAI.Responses.ResponseReasoningItem | undefined {
  if (!signature) return undefined;
  try {
    const item = JSON.parse(signature) as OpenAI.Responses.ResponseReasoningItem;
    return item.type === "reasoning" && typeof item.id === "string" ? item : undefined;
  } catch {
    return undefined;
  }
}
