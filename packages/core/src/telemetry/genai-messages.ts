import type { AssistantContent, UserContent } from "../messages/content.js";
import { describeAttachment } from "../messages/describe-attachment.js";
import type { AssistantMessage, Message } from "../messages/message-types.js";
import { finishReason } from "./genai-attributes.js";

/**
 * One message part in the shape of the GenAI semantic conventions (`gen-ai-input-messages.json`,
 * `gen-ai-output-messages.json`): text, reasoning, an inline image or document (blob; the conventions' modality is an
 * open string, "document" for a PDF), a tool call or a tool call's response. An unresolved attachment is the text line
 * the model read for it.
 */
export type GenAiPart =
  | { type: "text"; content: string }
  | { type: "reasoning"; content: string }
  | { type: "blob"; modality: "image" | "document"; mime_type: string; content: string }
  | { type: "tool_call"; id: string; name: string; arguments: unknown }
  | { type: "tool_call_response"; id: string; response: unknown };

/** A chat message as the conventions draw it: `{ role, parts }` (`role` is system, user, assistant or tool). */
export interface GenAiMessage {
  role: "system" | "user" | "assistant" | "tool";
  parts: GenAiPart[];
}

/** A model's output message: a chat message with its `finish_reason`. */
export interface GenAiOutputMessage extends GenAiMessage {
  finish_reason: string;
}

/** `gen_ai.input.messages`: the request's messages, as JSON. Contract: pure; tool results are `tool` messages. */
export function genAiInputMessages(messages: readonly Message[]): string {
  return JSON.stringify(messages.map(genAiMessage));
}

/** `gen_ai.output.messages`: the model's answer with its finish reason, as JSON. */
export function genAiOutputMessages(message: AssistantMessage): string {
  const output: GenAiOutputMessage = {
    role: "assistant",
    parts: message.content.flatMap(assistantPart),
    finish_reason: finishReason(message.stopReason),
  };
  return JSON.stringify([output]);
}

/** `gen_ai.system_instructions`: the system prompt as a list of parts, as JSON. */
export function genAiSystemInstructions(systemPrompt: string): string {
  return JSON.stringify([{ type: "text", content: systemPrompt }]);
}

function genAiMessage(message: Message): GenAiMessage {
  switch (message.role) {
    case "user":
      return {
        role: "user",
        parts:
          typeof message.content === "string"
            ? [{ type: "text", content: message.content }]
            : message.content.map(userPart),
      };
    case "assistant":
      return { role: "assistant", parts: message.content.flatMap(assistantPart) };
    case "toolResult": {
      const text = message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
      const images = message.content.flatMap((part) => (part.type === "image" ? [userPart(part)] : []));
      return {
        role: "tool",
        parts: [{ type: "tool_call_response", id: message.toolCallId, response: text }, ...images],
      };
    }
  }
}

function userPart(part: UserContent): GenAiPart {
  switch (part.type) {
    case "text":
      return { type: "text", content: part.text };
    case "image":
      return { type: "blob", modality: "image", mime_type: part.mimeType, content: part.data };
    case "document":
      return { type: "blob", modality: "document", mime_type: part.mimeType, content: part.data };
    case "attachment":
      return { type: "text", content: describeAttachment(part) };
  }
}

function assistantPart(part: AssistantContent): GenAiPart[] {
  switch (part.type) {
    case "text":
      return [{ type: "text", content: part.text }];
    case "thinking":
      // Redacted reasoning is an opaque provider payload, not content anyone can read.
      return part.redacted === true ? [] : [{ type: "reasoning", content: part.thinking }];
    case "toolCall":
      return [{ type: "tool_call", id: part.id, name: part.name, arguments: part.arguments }];
  }
}
