import { agentConfigSchema } from "@chorus/gateway";
import { z } from "zod";

/**
 * Seed 003's `compact.level`: how much of the loop's automatic compaction runs.
 * - `off`: none — no micro-compaction, no summaries (not even after a context overflow); a conversation that outgrows
 *   the window ends its turn with the "too large to send" notice. `/compact` still works.
 * - `safe`: micro-compaction only — old tool results are cleared (a tool can be called again); nothing anyone said
 *   is rewritten into a summary.
 * - `full` (default, Chorus's behaviour before the setting existed): every tier — micro-compaction, then a
 *   summarising compaction past window − `reserveTokens` (tier 1 from the kept session summary when
 *   `context.sessionMemory` is on) and after a context overflow.
 * The seed's default is `safe`; Chorus keeps `full` so that configs written before it go on summarising.
 * Contract: `agentLoopOf` turns a level into the loop's context settings; the context features (`context.*`) are
 * separate opt-ins.
 */
export const compactionLevelSchema = z.enum(["off", "safe", "full"]);

/** A compaction level (`agents[].compaction.level`). */
export type CompactionLevel = z.output<typeof compactionLevelSchema>;

/**
 * The gateway's `agents[].compaction` with the bot's loop fields added: `level`, the summary's `model` and the
 * thresholds. Contract: the gateway's own checks (exclusive pruning strategies) still apply.
 */
export const botCompactionSchema = agentConfigSchema.shape.compaction
  .unwrap()
  .extend({
    level: compactionLevelSchema.default("full"),
    /** Model of the summary call (same names as the agent's `model`). Default: the session's model. */
    model: z.string().min(1).optional(),
    /** Summarising starts when the conversation passes the window minus this many tokens. Default 20 000. */
    reserveTokens: z.int().positive().optional(),
    /** Tokens of the latest messages kept word for word by a summary. Default 20 000. */
    keepRecentTokens: z.int().positive().optional(),
  })
  .prefault({});

/** The bot-only keys of `agents[].compaction` (the gateway's schema does not know them). */
export const BOT_COMPACTION_KEYS = ["level", "model", "reserveTokens", "keepRecentTokens"] as const;

/**
 * An agent's loop settings (seed 003 and 004), added to the bot's agent schema.
 * Contract: every field is optional; model names are checked against the model registry at start (`agentLoopIssues`)
 * and the keys never reach the gateway's schema (`withoutLoopSettings`).
 */
export const agentLoopFields = {
  /**
   * Models to continue on, in order, when the agent's model is overloaded (at once, as seed 004 says) or, with
   * `stallRecovery: fallback`, when its stream stalls. The failed attempt's partial output is discarded.
   */
  fallbackModels: z.array(z.string().min(1)).default([]),
  /** Model calls one turn may make before it stops with a notice. Default 100. */
  maxTurns: z.int().min(1).max(10_000).optional(),
  /** Seconds without a stream event before a model call counts as stalled. Default 30. */
  stallTimeoutSecs: z.number().min(1).max(600).optional(),
  /** On a stall: retry the call, abort the turn, or fall back. Default: fallback with fallbackModels, else retry. */
  stallRecovery: z.enum(["retry", "abort", "fallback"]).optional(),
  compaction: botCompactionSchema,
};

/** The bot-only loop keys on an agent (stripped before the gateway validates it). */
export const BOT_LOOP_KEYS = ["fallbackModels", "maxTurns", "stallTimeoutSecs", "stallRecovery"] as const;

/**
 * An agent without the bot's loop keys, its compaction without the bot's compaction keys: what the gateway validates.
 * Contract: pure; the agent is not changed.
 */
export function withoutLoopSettings<A extends { compaction: object }>(
  agent: A,
): Omit<A, (typeof BOT_LOOP_KEYS)[number]> {
  const rest: Record<string, unknown> = { ...agent };
  for (const key of BOT_LOOP_KEYS) delete rest[key];
  const compaction: Record<string, unknown> = { ...agent.compaction };
  for (const key of BOT_COMPACTION_KEYS) delete compaction[key];
  return { ...rest, compaction } as Omit<A, (typeof BOT_LOOP_KEYS)[number]>;
}
