import { CONTEXT_RESTORATION_DEFAULTS, TOOL_OUTPUT_COMPRESSION_DEFAULTS } from "@chorus/core";
import { z } from "zod";

/**
 * TACO tool-output compression of an agent (seed 002 `[tools.taco]`, camelCase here). Off by default: it makes an
 * extra model call per large tool output.
 */
export const toolOutputCompressionConfigSchema = z.strictObject({
  /** Default false. */
  enabled: z.boolean().default(false),
  /** Outputs estimated above this many tokens are summarised. Default 2 000. */
  thresholdTokens: z.int().min(1).max(1_000_000).default(TOOL_OUTPUT_COMPRESSION_DEFAULTS.thresholdTokens),
  /** Size the summary should stay under. Default 500. */
  targetTokens: z.int().min(1).max(100_000).default(TOOL_OUTPUT_COMPRESSION_DEFAULTS.targetTokens),
  /** The summarising model: a model id of the catalog; default the session's own model. */
  model: z.string().min(1).optional(),
  /** Tools whose outputs may be summarised. MCP tools are left out by default (their output schema is unknown). */
  compressibleTools: z.array(z.string().min(1)).default([...TOOL_OUTPUT_COMPRESSION_DEFAULTS.compressibleTools]),
  /** A summary taking longer is abandoned and the raw output kept. Default 30 s. */
  timeoutSecs: z
    .number()
    .positive()
    .max(600)
    .default(TOOL_OUTPUT_COMPRESSION_DEFAULTS.timeoutMs / 1000),
});

/**
 * Re-attaching recently read files after a compaction (seed 004 "Context Restoration"). On by default, as in the
 * seed; it acts only when the agent's tools report reads (the bot's read_file does).
 */
export const contextRestorationConfigSchema = z.strictObject({
  /** Default true. */
  enabled: z.boolean().default(true),
  /** Files re-attached at most. Default 5. */
  maxFiles: z.int().min(1).max(50).default(CONTEXT_RESTORATION_DEFAULTS.maxFiles),
  /** Tokens all re-attached files may take. Default 50 000. */
  totalBudgetTokens: z.int().min(100).max(500_000).default(CONTEXT_RESTORATION_DEFAULTS.totalBudgetTokens),
  /** Tokens one file may take (a longer one is cut). Default 5 000. */
  perFileTokens: z.int().min(100).max(100_000).default(CONTEXT_RESTORATION_DEFAULTS.perFileTokens),
});

export type ToolOutputCompressionSettings = z.output<typeof toolOutputCompressionConfigSchema>;
export type ContextRestorationSettings = z.output<typeof contextRestorationConfigSchema>;
