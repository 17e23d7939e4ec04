import type { ImageContent, TextContent, ToolCall } from "../messages/content.js";
import type { AssistantMessage, StopReason, ToolResultMessage, UserMessage } from "../messages/message-types.js";
import { emptyUsage } from "../messages/usage.js";

/** A user message with plain text. Contract: timestamp is Date.now(). */
export function userMessage(text: string): UserMessage {
  return { role: "user", content: text, timestamp: Date.now() };
}

/** An assistant message holding one text block (api/provider/model "scripted"/"fake-model"). */
export function assistantText(text: string, stopReason: StopReason = "stop"): AssistantMessage {
  return assistantMessage([{ type: "text", text }], stopReason);
}

/** An assistant message with the given tool calls (ids default to `call_<index+1>`), stopReason "toolUse". */
export function assistantToolCalls(
  calls: { name: string; args?: Record<string, unknown>; id?: string }[],
): AssistantMessage {
  const content: ToolCall[] = calls.map((c, i) => ({
    type: "toolCall",
    id: c.id ?? `call_${i + 1}`,
    name: c.name,
    arguments: c.args ?? {},
  }));
  return assistantMessage(content, "toolUse");
}

/** An assistant message from raw content. */
export function assistantMessage(
  content: AssistantMessage["content"],
  stopReason: StopReason = "stop",
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "scripted",
    provider: "scripted",
    model: "fake-model",
    usage: emptyUsage(),
    stopReason,
    timestamp: Date.now(),
  };
}

/** A tool result message with one text block. */
export function toolResult(toolCallId: string, toolName: string, text: string, isError = false): ToolResultMessage {
  const content: (TextContent | ImageContent)[] = [{ type: "text", text }];
  return { role: "toolResult", toolCallId, toolName, content, isError, timestamp: Date.now() };
}
