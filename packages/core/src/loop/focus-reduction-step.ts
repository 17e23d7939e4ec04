import { estimateTokens } from "../context/token-estimate.js";
import type { ContextConfig } from "./loop-config.js";
import type { RunState } from "./run-state.js";

/**
 * Applies the Focus strategy's reduction to the run's transcript (first step before a model call). In the transcript
 * rather than a transform of the request: the thresholds and the ceiling are measured on the transcript, so they see
 * the reduced size, and a later summarising compaction summarises knowledge, not the raw exploration. The reduction is
 * derived from the focus state each time (like micro-compaction), so a transcript read back from a store after a
 * restart is reduced again. Contract: emits `compaction` (kind `focus`) only when the transcript changed.
 */
export function applyFocusReduction(state: RunState, focus: NonNullable<ContextConfig["focus"]>): void {
  const reduced = focus.reduce(state.messages);
  if (reduced === undefined) return;
  const tokensBefore = estimateTokens(state.messages, state.systemPrompt);
  state.messages = reduced;
  const tokensAfter = estimateTokens(reduced, state.systemPrompt);
  state.emit({ type: "compaction", kind: "focus", tokensBefore, tokensAfter, messages: reduced });
}
