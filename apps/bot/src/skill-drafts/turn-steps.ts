import type { AgentMessage } from "@chorus/core";
import { assistantText, type TurnCommitted, userInputText } from "@chorus/gateway";

/** What a successful turn did: what was asked, the tools it called (in order) and what it answered. */
export interface TurnSteps {
  readonly request: string;
  readonly toolCalls: readonly { readonly name: string; readonly arguments: string }[];
  readonly reply: string;
}

/** Arguments of one tool call are cut to this many characters: a step needs their shape, not their bulk. */
const ARGUMENT_CHARS = 300;

/** The request a turn answered: the text of the people's messages it took (a goal's or a sub-agent's are not).
 * Contract: pure; "" when only goals or sub-agents spoke.
 */
export function turnRequestOf(turn: Pick<TurnCommitted, "items">): string {
  return userInputText(turn.items.filter((item) => item.source === "user").map((item) => item.message)).trim();
}

/** The steps of a turn, from its queued messages and the messages its run added. Contract: pure. */
export function turnStepsOf(turn: Pick<TurnCommitted, "items" | "result">): TurnSteps {
  const added: readonly AgentMessage[] = turn.result?.messages ?? [];
  const toolCalls = added.flatMap((message) => {
    const m = message as { role?: string; content?: unknown };
    if (m.role !== "assistant" || !Array.isArray(m.content)) return [];
    return (m.content as { type?: string; name?: string; arguments?: unknown }[])
      .filter((block) => block.type === "toolCall" && typeof block.name === "string")
      .map((block) => ({
        name: block.name as string,
        arguments: JSON.stringify(block.arguments ?? {}).slice(0, ARGUMENT_CHARS),
      }));
  });
  const reply =
    added
      .map(assistantText)
      .filter((text) => text.trim() !== "")
      .at(-1) ?? "";
  return { request: turnRequestOf(turn), toolCalls, reply: reply.trim() };
}
