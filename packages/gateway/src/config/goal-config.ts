import { z } from "zod";

/** The completion phrases of seed 002: a turn that says one of them, and calls no tool, completes the goal. */
export const DEFAULT_COMPLETION_PHRASES = ["task complete", "done", "finished", "completed"] as const;

/**
 * An agent's goal settings (seed 002 "Goal Lifecycle" and "Autonomous Goal Execution"; camelCase here).
 * Autonomous goals are off by default: they run the model turn after turn on their own and cost money.
 */
export const goalConfigSchema = z.strictObject({
  /** `/goal`, `/done` and `/clear` work, and completion phrases are watched for. Default true. */
  enabled: z.boolean().default(true),
  /** Put the active goal's text where the agent's system prompt says `{current_goal}`. Default false. */
  trackInSystemPrompt: z.boolean().default(false),
  /** Phrases (case-insensitive, whole words) that complete the goal in a turn that called no tool. */
  completionPhrases: z.array(z.string().trim().min(1)).default([...DEFAULT_COMPLETION_PHRASES]),
  /** After a user turn, a small model call infers a goal stated in it (informational; `/goal` wins). Default false. */
  inferFromConversation: z.boolean().default(false),
  /** The model that inference asks (a model id of the catalog); default: `supervisorModel`, else the session's. */
  inferenceModel: z.string().min(1).optional(),
  /** Allow `/goal create --auto`; when false `--auto` is refused as the command is read. Default false. */
  autonomousEnabled: z.boolean().default(false),
  /** Turn limit of an autonomous goal, and the most `--turns` may ask for. Default 50. */
  autonomousMaxTurns: z.int().min(1).max(10_000).default(50),
  /** The model the supervisor asks (a model id of the catalog); default: the session's own model. */
  supervisorModel: z.string().min(1).optional(),
  /** The supervisor is asked every this many autonomous turns. Default 5. */
  verifyInterval: z.int().min(1).max(1_000).default(5),
  /** One supervisor call may take this long before it counts as failed. Default 30 s. */
  supervisorTimeoutSecs: z.number().positive().max(3_600).default(30),
  /** This many identical outputs in a row end the goal as stuck. Default 3. */
  maxStuckCount: z.int().min(2).max(1_000).default(3),
  /** Wait between autonomous turns. Default 500 ms. */
  autonomousTurnDelayMs: z.int().min(0).max(3_600_000).default(500),
  /** This many supervisor failures in a row pause the goal (a circuit breaker). Default 3. */
  maxSupervisorFails: z.int().min(1).max(100).default(3),
  /** The lowest trust tier that may start an autonomous goal: owner (admins, the default), trusted or guest. */
  autonomousMinTier: z.enum(["owner", "trusted", "guest"]).default("owner"),
});

/** An agent's goal settings, defaults applied. */
export type GoalConfig = z.output<typeof goalConfigSchema>;
/** An agent's goal settings as written. */
export type GoalConfigInput = z.input<typeof goalConfigSchema>;

/** The settings of an agent that configures none. */
export const GOAL_DEFAULTS: GoalConfig = goalConfigSchema.parse({});
