import type { MicroCompactionConfig } from "../loop/loop-config.js";
import type { AgentMessage, ToolResultMessage } from "../messages/message-types.js";
import { estimateMessageTokens } from "./token-estimate.js";

/** What a cleared tool result says instead of its content. */
export const CLEARED_RESULT_TEXT = "[Old tool result cleared to save context; run the tool again if you need it.]";

/** Seed 004's constants. */
export const MICRO_COMPACTION_DEFAULTS = { keepRecent: 3, minSavingsTokens: 20_000 } as const;

/** The settings of a run that has none (shared: this runs before every model call). */
const NO_CONFIG: MicroCompactionConfig = {};

/**
 * Clears the content of tool results older than the most recent `keepRecent` (seed 004),
 * but only when that saves at least `minSavingsTokens`.
 * Contract: returns undefined when nothing is worth clearing; otherwise a new array with new
 * result objects (the input is untouched) and the tokens saved.
 */
export function microCompact(
  messages: readonly AgentMessage[],
  config: MicroCompactionConfig = NO_CONFIG,
): { messages: AgentMessage[]; saved: number } | undefined {
  const keep = config.keepRecent ?? MICRO_COMPACTION_DEFAULTS.keepRecent;
  const minSavings = config.minSavingsTokens ?? MICRO_COMPACTION_DEFAULTS.minSavingsTokens;
  const compactable = config.compactable;
  const scores = config.scores?.(messages);
  let seen = 0;
  let saved = 0;
  // Runs before every model call: nothing is allocated until a result is worth clearing.
  let clear: number[] | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as AgentMessage;
    if ((m as { role: string }).role !== "toolResult") continue;
    if (seen++ < keep) continue;
    const result = m as ToolResultMessage;
    if ((compactable !== undefined && !compactable(result.toolName)) || isCleared(result) || (scores?.[i] ?? 0) >= 1) {
      continue;
    }
    saved += estimateMessageTokens(result) - clearedTokens;
    if (clear === undefined) clear = [i];
    else clear.push(i);
  }
  if (clear === undefined) return undefined;
  if (saved < minSavings && scores !== undefined) {
    // Below the saving threshold, only what scores 0 or less goes: a stale output that a more relevant one repeats.
    const gain = (i: number): number => estimateMessageTokens(messages[i] as AgentMessage) - clearedTokens;
    clear = clear.filter((i) => (scores[i] ?? 1) <= 0 && gain(i) > 0);
    if (clear.length === 0) return undefined;
    saved = clear.reduce((sum, i) => sum + gain(i), 0);
  } else if (clear.length === 0 || saved < minSavings) return undefined;
  const out = messages.slice();
  for (const i of clear) {
    const result = out[i] as ToolResultMessage;
    out[i] = { ...result, content: [{ type: "text", text: CLEARED_RESULT_TEXT }] };
  }
  return { messages: out, saved };
}

const clearedTokens = Math.ceil(CLEARED_RESULT_TEXT.length / 4) + 4;

function isCleared(result: ToolResultMessage): boolean {
  const first = result.content[0];
  return result.content.length === 1 && first?.type === "text" && first.text === CLEARED_RESULT_TEXT;
}
