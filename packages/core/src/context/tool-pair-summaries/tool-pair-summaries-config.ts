/** Where the soft tier finds a finished tool pair's summary (a `ToolPairSummaryKeeper`, or your own store). */
export interface ToolPairSummarySource {
  /** The summary of the pair whose tool call has this id, once one was made. Contract: cheap and synchronous. */
  summaryOf(toolCallId: string): string | undefined;
}

/** Seed 002's soft threshold: the share of the context window past which deferred tool-pair summaries apply. */
export const DEFAULT_SOFT_THRESHOLD = 0.6;

/** Most recent tool results never replaced by their summary unless configured. */
export const DEFAULT_TOOL_PAIRS_KEPT = 4;

/**
 * The soft pressure tier (seed 002 "Context Pressure Management"): deferred tool-pair summaries. Contract: off unless
 * given; checked when the Agent or loop starts (InvalidAgentConfigError naming the field).
 */
export interface ToolPairSummariesConfig {
  /** The summaries made so far (made off the critical path; the loop only reads them). */
  summaries: ToolPairSummarySource;
  /** Share of the context window past which summaries replace older results: 0 < x < 1, below the hard threshold. Default 0.6. */
  softThreshold?: number;
  /** Most recent tool results always kept as they are. Default 4. */
  keepRecent?: number;
}
