import type { ToolCall } from "../../messages/content.js";
import type { AssistantMessage, ToolResultMessage } from "../../messages/message-types.js";
import type { StreamContext } from "../../stream/stream-fn.js";

/** The summariser's instructions. */
export const TOOL_PAIR_SUMMARY_PROMPT =
  "You compress an AI agent's tool call and its result into a short note the agent will read later instead of the " +
  "full result. Keep what the agent may need again: the facts found, numbers, names, file paths, identifiers, " +
  "errors and what they mean. Leave out boilerplate and anything the call's arguments already say. At most 5 " +
  "sentences, plain text, no preamble.";

/** What heads a tool result whose content was replaced by its summary (how the soft tier knows it is done). */
export const TOOL_PAIR_SUMMARY_MARKER = "[Summary of an older tool result, shortened to save context]";

/** Longest summary kept; a longer answer is cut (a summary must stay much smaller than what it replaces). */
export const MAX_TOOL_PAIR_SUMMARY_CHARS = 1_500;

const MAX_ARGUMENT_CHARS = 2_000;
const MAX_RESULT_CHARS = 16_000;

/** The summary request for one pair: rendered as text, so any provider takes it (no tool blocks). */
export function toolPairSummaryRequest(call: ToolCall, result: ToolResultMessage): StreamContext {
  const args = clip(JSON.stringify(call.arguments ?? {}), MAX_ARGUMENT_CHARS);
  const output = clip(resultText(result), MAX_RESULT_CHARS);
  const status = result.isError ? " (the tool failed)" : "";
  const text = `Tool: ${call.name}\nArguments: ${args}\n\nResult${status}:\n${output}\n\nWrite the note.`;
  return { systemPrompt: TOOL_PAIR_SUMMARY_PROMPT, messages: [{ role: "user", content: text, timestamp: Date.now() }] };
}

/** The summary in a reply. Contract: never throws; undefined for a failed or empty reply. */
export function readToolPairSummary(reply: AssistantMessage): string | undefined {
  if (reply.stopReason === "error" || reply.stopReason === "aborted") return undefined;
  const text = reply.content
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("")
    .trim();
  return text === "" ? undefined : clip(text, MAX_TOOL_PAIR_SUMMARY_CHARS);
}

/** The text of a tool result (images are named, never sent to the summariser). */
export function resultText(result: ToolResultMessage): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n");
}

/** Whether the result already carries its summary in place of its content. */
export function isSummarised(result: ToolResultMessage): boolean {
  const first = result.content[0];
  return result.content.length === 1 && first?.type === "text" && first.text.startsWith(TOOL_PAIR_SUMMARY_MARKER);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
