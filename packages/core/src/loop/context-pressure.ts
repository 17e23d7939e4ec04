import { estimateMessageTokens, estimateTokens } from "../context/token-estimate.js";
import { applyToolPairSummaries } from "../context/tool-pair-summaries/apply-tool-pair-summaries.js";
import { DEFAULT_SOFT_THRESHOLD } from "../context/tool-pair-summaries/tool-pair-summaries-config.js";
import type { RunState } from "./run-state.js";

/** Seed 004's WARNING_OFFSET: the warning comes this many tokens before the summarising compaction starts. */
export const DEFAULT_WARNING_OFFSET = 20_000;

/**
 * Seed 002's soft tier, before a model call: past softThreshold × window the deferred tool-pair summaries replace
 * the older results (a `compaction` event of kind `tool_pairs`). Returns the request's estimate afterwards.
 * Contract: never throws (a throwing summary source is logged and skipped); changes nothing below the threshold.
 */
export function relieveSoftPressure(state: RunState, tokens: number, window: number): number {
  const pairs = state.config.context?.toolPairSummaries;
  if (pairs === undefined || tokens <= window * (pairs.softThreshold ?? DEFAULT_SOFT_THRESHOLD)) return tokens;
  let applied: ReturnType<typeof applyToolPairSummaries>;
  try {
    applied = applyToolPairSummaries(state.messages, pairs.summaries, pairs.keepRecent);
  } catch (error) {
    state.config.logger?.warn({ err: (error as Error)?.message ?? String(error) }, "tool-pair summaries failed");
    return tokens;
  }
  if (applied === undefined) return tokens;
  const before = estimateTokens(state.messages, state.systemPrompt);
  state.messages = applied.messages;
  const after = estimateTokens(state.messages, state.systemPrompt);
  state.emit({
    type: "compaction",
    kind: "tool_pairs",
    tokensBefore: before,
    tokensAfter: after,
    messages: state.messages,
  });
  return tokens - (before - after);
}

/**
 * Seed 004's context warning: a `context_warning` once the request's estimate passes window − reserve − offset while
 * still under window − reserve (past it the compaction itself is shown). It fires on the crossing — the previous
 * request (or, for a run's first, the transcript before the run's messages) was under the line — so it comes once per
 * approach and again after a compaction brought the transcript back under. None when the offset leaves less than
 * half of window − reserve (a small window would warn from its first message). Contract: never throws.
 */
export function warnNearCompaction(
  state: RunState,
  tokens: number,
  limits: { window: number; compactAt: number },
): void {
  const previous = state.lastRequestTokens;
  state.lastRequestTokens = tokens;
  const warnAt = limits.compactAt - (state.config.context?.warningOffset ?? DEFAULT_WARNING_OFFSET);
  if (warnAt < limits.compactAt / 2 || tokens <= warnAt || tokens > limits.compactAt) return;
  if ((previous ?? tokens - addedTokens(state)) > warnAt) return;
  state.emit({ type: "context_warning", tokens, window: limits.window, compactAt: limits.compactAt });
}

/** The estimate of what the run added so far (its first request: the prompts and a reminder). */
function addedTokens(state: RunState): number {
  let sum = 0;
  for (const message of state.added) sum += estimateMessageTokens(message);
  return sum;
}
