import { DEFAULT_SUMMARY_PROMPT, type StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";

/** The list "make a plan" writes: one item in progress, one pending, one completed. */
export const PLAN = [
  { content: "OPEN-A read the parser", status: "in_progress" },
  { content: "OPEN-B write the tests", status: "pending" },
  { content: "DONE-C set up the repo", status: "completed" },
];
/** The list "progress" writes: OPEN-A done, OPEN-B under way. */
export const PROGRESS = [
  { content: "OPEN-A read the parser", status: "completed" },
  { content: "OPEN-B write the tests", status: "in_progress" },
  { content: "DONE-C set up the repo", status: "completed" },
];
export const SUMMARY = "Summary: the parser work was discussed.";
/** What core's pending-todos reminder opens with. */
export const REMINDER = "Your todo list still has open items:";

const tooMany = Array.from({ length: 51 }, (_, i) => ({ content: `item ${i}`, status: "pending" }));
const twoAtOnce = [
  { content: "first", status: "in_progress" },
  { content: "second", status: "in_progress" },
];
const tooLong = [{ content: "x".repeat(501), status: "pending" }];

/** The text of a message, whatever its content's shape. */
export function textOf(message: unknown): string {
  const content = (message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block: { text?: string }) => block.text ?? "").join(" ");
}

const LISTS: Record<string, unknown[]> = {
  "make a plan": PLAN,
  progress: PROGRESS,
  "too many": tooMany,
  "two at once": twoAtOnce,
  "too long": tooLong,
};

/**
 * The model of these tests: a summary request is answered with SUMMARY; after a tool result it repeats what the tool
 * said (so the chat shows it); a message naming one of LISTS' keys calls `todo_write` with that list; else "ok".
 */
export function todoScript(context: StreamContext): ScriptedTurn {
  if (context.systemPrompt === DEFAULT_SUMMARY_PROMPT) return SUMMARY;
  // The newest message may be a system reminder: look at what the person or a tool said last.
  const last = context.messages.findLast((m) => (m as { isMeta?: boolean }).isMeta !== true);
  if (last?.role === "toolResult") return `tool said: ${textOf(last).slice(0, 300)}`;
  const text = textOf(last);
  for (const [words, todos] of Object.entries(LISTS)) {
    if (text.includes(words)) return { toolCalls: [{ name: "todo_write", args: { todos } }] };
  }
  return "ok";
}

/** The reminders a request carries (the system-reminder entries' text). */
export function remindersIn(context: StreamContext | undefined): string {
  return (context?.messages ?? [])
    .filter((m) => (m as { isMeta?: boolean }).isMeta === true)
    .map(textOf)
    .join("\n");
}
