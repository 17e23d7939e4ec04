import type { AttachmentContent } from "../../messages/content.js";
import { describeAttachment } from "../../messages/describe-attachment.js";
import type { AgentMessage, AssistantMessage } from "../../messages/message-types.js";
import type { StreamContext } from "../../stream/stream-fn.js";

/** Messages of context the extraction looks at (seed 002: the last 6 agent-visible ones). */
export const SUBGOAL_CONTEXT_MESSAGES = 6;

/** The extractor's instructions. */
export const SUBGOAL_PROMPT =
  "You track what an AI agent is working on. From the recent messages, name the agent's current subgoal in one " +
  "short line (under 15 words). If the current subgoal below is finished, write a line `COMPLETED: <that subgoal>` " +
  "first; then the new subgoal on its own line if one has started. Write `NONE` if there is no task at hand.";

/** What the extractor said. */
export interface SubgoalReading {
  /** The current subgoal was finished. */
  readonly completed: boolean;
  /** The subgoal being worked on now, if one was named. */
  readonly current: string | undefined;
}

const MAX_CHARS_PER_MESSAGE = 2_000;

/** The extraction request: the last messages rendered as text (no tool calls, so any provider takes it). */
export function subgoalRequest(messages: readonly AgentMessage[], current: string | undefined): StreamContext {
  const recent = messages
    .slice(-SUBGOAL_CONTEXT_MESSAGES)
    .map(renderMessage)
    .filter((line) => line !== "");
  const text =
    `Current subgoal: ${current ?? "(none)"}\n\nRecent messages:\n${recent.join("\n")}\n\n` +
    "Answer with the subgoal line(s) only.";
  return {
    systemPrompt: SUBGOAL_PROMPT,
    messages: [{ role: "user", content: text, timestamp: Date.now() }],
  };
}

/** Reads the extractor's reply. Contract: never throws; an empty or `NONE` reply names no subgoal. */
export function readSubgoalReply(reply: AssistantMessage): SubgoalReading {
  const text = reply.content
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("");
  let completed = false;
  let current: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim().replace(/^[-*]\s*/, "");
    if (line === "") continue;
    if (/^COMPLETED:/i.test(line)) completed = true;
    else if (/^NONE\.?$/i.test(line)) continue;
    else current ??= line.replace(/^(subgoal|current subgoal):\s*/i, "").slice(0, 200);
  }
  return { completed, current };
}

function renderMessage(message: AgentMessage): string {
  const m = message as { role?: string; content?: unknown; toolName?: string };
  if (m.role !== "user" && m.role !== "assistant" && m.role !== "toolResult") return "";
  const parts: string[] = [];
  if (typeof m.content === "string") parts.push(m.content);
  else if (Array.isArray(m.content)) {
    for (const block of m.content as { type: string; text?: string; name?: string; arguments?: unknown }[]) {
      if (block.type === "text" && block.text) parts.push(block.text);
      else if (block.type === "toolCall") parts.push(`[calls ${block.name} ${JSON.stringify(block.arguments ?? {})}]`);
      // What a person sent is part of the task: a file never vanishes from the text, it is named.
      else if (block.type === "image") parts.push("[image]");
      else if (block.type === "document") parts.push(`[document${block.name ? `: ${block.name}` : ""}]`);
      else if (block.type === "attachment") parts.push(describeAttachment(block as AttachmentContent));
    }
  }
  const who = m.role === "toolResult" ? `tool ${m.toolName ?? ""}`.trim() : m.role;
  return `${who}: ${parts.join(" ").slice(0, MAX_CHARS_PER_MESSAGE)}`;
}
