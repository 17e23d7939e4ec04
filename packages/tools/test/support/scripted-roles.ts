import type { StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";

/** The depth a scripted call belongs to, read from the child system prompt ("depth N of M"); 0 for the top level. */
export function depthOf(context: StreamContext): number {
  return Number(/sub-agent at depth (\d) of/.exec(context.systemPrompt ?? "")?.[1] ?? 0);
}

/** The last message of the request, when it is a tool result: its text and error flag. */
export function lastToolResult(context: StreamContext): { text: string; isError: boolean } | undefined {
  const last = context.messages[context.messages.length - 1];
  if (last?.role !== "toolResult") return undefined;
  return { text: last.content.map((c) => (c.type === "text" ? c.text : "")).join(""), isError: last.isError };
}

/** The first user message's text (a child's task). */
export function taskOf(context: StreamContext): string {
  const first = context.messages.find((m) => m.role === "user");
  if (!first) return "";
  return typeof first.content === "string"
    ? first.content
    : first.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** One scripted reply per depth: `(ctx) => turn`. */
export type RoleScript = (context: StreamContext) => ScriptedTurn;
