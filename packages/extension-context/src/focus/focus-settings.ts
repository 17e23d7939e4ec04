import {
  DEFAULT_AUTO_CONSOLIDATE_MIN_WINDOW,
  DEFAULT_CONSOLIDATION_SIMILARITY,
  DEFAULT_MAX_KNOWLEDGE_CHARS,
} from "@chorus/core";
import { z } from "zod";

/**
 * `agents[].context.focus`: seed 002's Focus strategy. The agent gets `start_focus` / `complete_focus`; a completed
 * focus's raw messages are replaced in its context by the knowledge it kept, and every `autoConsolidateMinWindow`
 * turns similar knowledge is merged. Contract: off unless `enabled`; a window of 0 is refused (it would consolidate
 * after every turn); it cannot be on with the gateway's subgoal pruning (`compaction.pruning`), a start-up error.
 */
export const focusSettingsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Turns between two auto-consolidation passes: a whole number of at least 1. */
  autoConsolidateMinWindow: z
    .number()
    .int("must be a whole number of turns")
    .min(
      1,
      "must be at least 1 (turns between consolidations); 0 would consolidate after every turn — set enabled: false to turn focus off",
    )
    .default(DEFAULT_AUTO_CONSOLIDATE_MIN_WINDOW),
  /** Jaccard similarity of two knowledge texts' word sets at which they merge: above 0, at most 1. */
  similarityThreshold: z.number().gt(0).max(1).default(DEFAULT_CONSOLIDATION_SIMILARITY),
  /** Longest knowledge `complete_focus` accepts (characters). */
  maxKnowledgeChars: z.number().int().min(100).default(DEFAULT_MAX_KNOWLEDGE_CHARS),
});

/** Parsed Focus settings of one agent. */
export type FocusFeatureSettings = z.output<typeof focusSettingsSchema>;
