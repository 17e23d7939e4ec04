import type { AgentMessage, UserMessage } from "../../messages/message-types.js";
import { SUMMARY_PREFIX } from "../summary-compaction.js";
import { estimateMessageTokens } from "../token-estimate.js";
import { SESSION_MEMORY_DEFAULTS, type SessionMemorySource, stillCovers } from "./session-memory-summary.js";

/** A tier-1 compaction that saves enough: the transcript with the summary in place of the covered messages. */
export interface SessionMemoryCompactionPlan {
  /** [the summary as a compaction part, …every message after the covered one, verbatim]. */
  readonly messages: AgentMessage[];
  /** The compaction part (a user message starting with SUMMARY_PREFIX). */
  readonly part: AgentMessage;
  /** Tokens of the replaced messages minus the summary's (seed: `tokens_to_save - summary_tokens`). */
  readonly savedTokens: number;
  readonly summaryTokens: number;
}

/** Why tier 1 was not applied (tier 2 runs instead). */
export type SessionMemorySkip = "no-summary" | "moved" | "mid-tool-call" | "too-small";

/**
 * Seed 004's `try_session_memory_compact`: replaces every message up to and including the covered one (earlier
 * compaction parts too: the kept summary covers them) with the summary, when that saves at least the minimum.
 * Contract: pure; never throws; a summary whose covered message is no longer where it was (the transcript moved)
 * or that would cut between a tool call and its results is not applied.
 */
export function planSessionMemoryCompaction(
  messages: readonly AgentMessage[],
  source: SessionMemorySource,
): SessionMemoryCompactionPlan | SessionMemorySkip {
  const summary = source.current();
  if (summary === undefined) return "no-summary";
  if (!stillCovers(summary.covered, messages)) return "moved";
  const keepFrom = summary.covered.index + 1;
  if ((messages[keepFrom] as { role?: string } | undefined)?.role === "toolResult") return "mid-tool-call";
  let replacedTokens = 0;
  for (let i = 0; i < keepFrom; i++) replacedTokens += estimateMessageTokens(messages[i] as AgentMessage);
  const part: UserMessage = { role: "user", content: SUMMARY_PREFIX + summary.text, timestamp: Date.now() };
  const summaryTokens = estimateMessageTokens(part);
  const savedTokens = replacedTokens - summaryTokens;
  if (savedTokens < (source.minSavingsTokens ?? SESSION_MEMORY_DEFAULTS.minSavingsTokens)) return "too-small";
  return { messages: [part, ...messages.slice(keepFrom)], part, savedTokens, summaryTokens };
}
