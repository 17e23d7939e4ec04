import { DEFAULT_SOFT_THRESHOLD, DEFAULT_TOOL_PAIRS_KEPT } from "@chorus/core";
import { z } from "zod";

/**
 * `agents[].context.toolPairSummaries`: seed 002's deferred tool-pair summaries. A cheap model summarises each
 * finished tool call and its result in the background; past `softThreshold` × the context window the older results
 * are replaced by their summaries, before the summarising compaction is needed. Contract: off unless `enabled`.
 */
export const toolPairSummariesSettingsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** The summariser's model (a catalog id); default: the session's own model. */
  model: z.string().min(1).optional(),
  /** Share of the context window past which summaries apply: 0 < x < 1, below the compaction's threshold. */
  softThreshold: z
    .number()
    .gt(0, "must be above 0 (a share of the context window, e.g. 0.6)")
    .lt(1, "must be below 1 (a share of the context window, e.g. 0.6)")
    .default(DEFAULT_SOFT_THRESHOLD),
  /** Most recent tool results never replaced. */
  keepRecent: z.number().int().min(0).default(DEFAULT_TOOL_PAIRS_KEPT),
});

/** Parsed tool-pair summary settings of one agent. */
export type ToolPairSummariesSettings = z.output<typeof toolPairSummariesSettingsSchema>;
