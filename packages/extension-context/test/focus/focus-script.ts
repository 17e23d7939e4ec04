import type { StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";

/** The raw output of the exploration: it must never reach the model once its focus is completed. */
export const RAW = "RAW-EXPLORATION ".repeat(50);
export const KNOWLEDGE = "The deploy script is scripts/deploy.sh; it needs DEPLOY_ENV.";

/** The text of a message, whatever its content's shape. */
export function textOf(message: unknown): string {
  const content = (message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block: { text?: string; name?: string }) => block.text ?? block.name ?? "").join(" ");
}

/**
 * The model of these tests: "explore" opens a focus and answers with raw output; "finish" completes it with the
 * knowledge; "too long" completes with knowledge over the cap; anything else is answered "ok".
 */
export function focusScript(context: StreamContext): ScriptedTurn {
  const last = context.messages.at(-1);
  const role = (last as { role?: string } | undefined)?.role;
  const text = textOf(last);
  if (role === "toolResult") {
    const name = (last as { toolName?: string }).toolName;
    const failed = (last as { isError?: boolean }).isError === true;
    return name === "start_focus" && !failed ? `Looked around: ${RAW}` : `tool said: ${text.slice(0, 80)}`;
  }
  if (text.includes("explore"))
    return { toolCalls: [{ name: "start_focus", args: { scope: "find the deploy script" } }] };
  if (text.includes("finish")) return { toolCalls: [{ name: "complete_focus", args: { knowledge: KNOWLEDGE } }] };
  if (text.includes("too long")) {
    return { toolCalls: [{ name: "complete_focus", args: { knowledge: "k".repeat(20_000) } }] };
  }
  return "ok";
}

/** Whether a request carries the raw exploration, the knowledge. */
export function carries(context: StreamContext | undefined): { raw: boolean; knowledge: boolean } {
  const all = JSON.stringify(context?.messages ?? []);
  return { raw: all.includes("RAW-EXPLORATION"), knowledge: all.includes(KNOWLEDGE) };
}
