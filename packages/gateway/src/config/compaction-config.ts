import { z } from "zod";

/** Tool-output pruning strategies (seed 002). At most one of them may be enabled. */
export const pruningStrategySchema = z.enum(["subgoal", "subgoal_mig"]);

/** Pruning strategies that partition the same tool outputs: enabling two of them is a start-up error. */
export const EXCLUSIVE_PRUNING_STRATEGIES: readonly string[] = ["subgoal", "subgoal_mig"];

/**
 * An agent's compaction settings (chorus.config.yaml `agents[].compaction`).
 * Contract: two exclusive pruning strategies fail the config at start-up with a message naming both.
 */
export const compactionConfigSchema = z.strictObject({
  /**
   * Subgoal pruning (HiAgent, run by @chorus/extension-context): `subgoal` keeps the active subgoal's messages through
   * compaction, never clearing its tool results; `subgoal_mig` also ranks redundant outputs lower. Default: none.
   */
  pruning: z
    .array(pruningStrategySchema)
    .default([])
    .superRefine((strategies, ctx) => {
      const exclusive = [...new Set(strategies.filter((s) => EXCLUSIVE_PRUNING_STRATEGIES.includes(s)))];
      if (exclusive.length > 1) {
        ctx.addIssue({
          code: "custom",
          message: `pruning strategies ${exclusive.join(" and ")} are mutually exclusive; enable only one`,
        });
      }
    }),
  /** Model (catalog id) for subgoal extraction (an unknown id fails the start). Default: the session's model. */
  subgoalModel: z.string().min(1).optional(),
  /** A status line in the chat while a compaction runs, then what it saved (edited in place where possible). */
  statusLine: z.boolean().default(true),
});

/** Parsed compaction settings. */
export type CompactionSettings = z.output<typeof compactionConfigSchema>;
