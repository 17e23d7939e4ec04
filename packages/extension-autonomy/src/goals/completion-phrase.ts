import type { AgentMessage } from "@chorus/core";
import { assistantText, hasToolCalls } from "@chorus/gateway";

/** What a turn produced, as the goal machinery reads it. */
export interface TurnOutput {
  /** The last assistant message's text (trimmed); for a failed turn, the error. */
  readonly text: string;
  /** Whether any assistant message of the turn called a tool. */
  readonly calledTools: boolean;
  /** Whether the turn was stopped before it ended by itself. */
  readonly aborted: boolean;
}

/** The output of a turn from the messages it added. */
export function turnOutputOf(messages: readonly AgentMessage[], error?: string, aborted = false): TurnOutput {
  const assistants = messages.filter((message) => (message as { role?: string }).role === "assistant");
  const last = assistants.at(-1);
  const text = error === undefined ? (last === undefined ? "" : assistantText(last).trim()) : `error: ${error}`;
  return { text, calledTools: assistants.some((message) => hasToolCalls(message)), aborted };
}

/**
 * Whether a turn signals that the goal is complete (seed 002): its text contains one of the phrases as whole words,
 * ignoring case, and it called no tool (a turn still using tools is still working).
 */
export function signalsCompletion(output: TurnOutput, phrases: readonly string[]): boolean {
  if (output.calledTools || output.text === "") return false;
  const text = output.text.toLowerCase();
  return phrases.some((phrase) => phrasePattern(phrase).test(text));
}

function phrasePattern(phrase: string): RegExp {
  const escaped = phrase
    .trim()
    .toLowerCase()
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\s+/g, "\\s+");
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?:$|[^\\p{L}\\p{N}])`, "u");
}
