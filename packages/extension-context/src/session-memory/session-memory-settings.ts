import { SESSION_MEMORY_DEFAULTS } from "@chorus/core";
import { z } from "zod";

/**
 * `agents[].context.sessionMemory`: seed 004's tier-1 compaction. A (cheap) model keeps a running summary of each
 * session, refreshed off the turn once `minTokens` new tokens and `minToolCalls` tool calls (or a natural break)
 * passed; at the compaction threshold it replaces the messages it covers, with no model call, when that saves at
 * least `minSavingsTokens`. Contract: off unless `enabled`.
 */
export const sessionMemorySettingsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** The refresh model (a catalog id); default: the session's own model. An unknown id fails the start. */
  model: z.string().min(1).optional(),
  /** New tokens since the last refresh before the next one (TRIGGER_TOKEN_THRESHOLD). */
  minTokens: z.number().int().positive().default(SESSION_MEMORY_DEFAULTS.minTokens),
  /** Tool calls since the last refresh before the next one, unless at a natural break (TRIGGER_TOOL_CALL_THRESHOLD). */
  minToolCalls: z.number().int().positive().default(SESSION_MEMORY_DEFAULTS.minToolCalls),
  /** Tier 1 applies only when it saves at least this many tokens (SESSION_MEMORY_MIN_SAVINGS). */
  minSavingsTokens: z.number().int().nonnegative().default(SESSION_MEMORY_DEFAULTS.minSavingsTokens),
});

/** Parsed session-memory settings of one agent. */
export type SessionMemorySettings = z.output<typeof sessionMemorySettingsSchema>;
