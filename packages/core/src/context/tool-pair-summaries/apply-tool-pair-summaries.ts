import type { AgentMessage, ToolResultMessage } from "../../messages/message-types.js";
import { stripOrphanedToolResults } from "../orphaned-tool-results.js";
import { estimateMessageTokens } from "../token-estimate.js";
import { DEFAULT_TOOL_PAIRS_KEPT, type ToolPairSummarySource } from "./tool-pair-summaries-config.js";
import { isSummarised, TOOL_PAIR_SUMMARY_MARKER } from "./tool-pair-summary-request.js";

/** What the soft tier did: the new transcript, the tool results it replaced and the tokens that saved. */
export interface AppliedToolPairSummaries {
  readonly messages: AgentMessage[];
  readonly replaced: number;
  readonly saved: number;
}

/**
 * Seed 002's soft tier: every tool result older than the most recent `keepRecent` whose pair has a summary gets the
 * summary in place of its content (the tool call stays, so the pair stays valid for every provider), when that is
 * smaller; then orphaned tool results are stripped (seed 002: after every application of deferred summaries).
 * Contract: pure — the input is untouched; undefined when nothing was replaced.
 */
export function applyToolPairSummaries(
  messages: readonly AgentMessage[],
  summaries: ToolPairSummarySource,
  keepRecent: number = DEFAULT_TOOL_PAIRS_KEPT,
): AppliedToolPairSummaries | undefined {
  let seen = 0;
  let saved = 0;
  let out: AgentMessage[] | undefined;
  let replaced = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as AgentMessage;
    if ((m as { role: string }).role !== "toolResult") continue;
    if (seen++ < keepRecent) continue;
    const result = m as ToolResultMessage;
    if (isSummarised(result)) continue;
    const summary = summaries.summaryOf(result.toolCallId);
    if (summary === undefined) continue;
    const shorter: ToolResultMessage = {
      ...result,
      content: [{ type: "text", text: `${TOOL_PAIR_SUMMARY_MARKER}\n${summary}` }],
    };
    const gain = estimateMessageTokens(result) - estimateMessageTokens(shorter);
    if (gain <= 0) continue; // already small (or cleared by micro-compaction): the summary would add tokens
    out ??= messages.slice();
    out[i] = shorter;
    saved += gain;
    replaced++;
  }
  if (out === undefined) return undefined;
  return { messages: stripOrphanedToolResults(out), replaced, saved };
}
