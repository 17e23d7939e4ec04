import { z } from "zod";

/** Where a session's goal lives in its record's `settings`. */
export const GOAL_SETTINGS_KEY = "goal";

/** How an autonomous run stands: running or paused, or how it ended. */
export const autonomousStatusSchema = z.enum([
  "running",
  "paused",
  "achieved",
  "turn-limit",
  "stuck",
  "stopped",
  "orphaned",
]);

/** The supervisor's last word on an autonomous goal. */
export const goalVerdictSchema = z.object({
  achieved: z.boolean(),
  reason: z.string(),
  /** The autonomous turn it judged. */
  turn: z.int().min(0),
  at: z.number(),
});

/** The durable state of an autonomous goal's run. */
export const autonomousStateSchema = z.object({
  status: autonomousStatusSchema,
  /** Turns it may run. */
  maxTurns: z.int().min(1),
  /** Turns it has run (each one stored in the transcript like any other). */
  turns: z.int().min(0),
  /** Turns in a row whose output repeated the one before. */
  stuckCount: z.int().min(0),
  /** A short hash of the last turn's output, to spot repeats. */
  lastOutputHash: z.string().optional(),
  /** Supervisor failures in a row. */
  supervisorFails: z.int().min(0),
  lastVerdict: goalVerdictSchema.optional(),
  /** Why it paused, stopped or was orphaned. */
  note: z.string().optional(),
  /** The trust tier of whoever started it: its turns run at that tier. */
  trust: z.enum(["owner", "trusted", "guest"]),
  updatedAt: z.number(),
});

/** A session's goal: Active (working on it) or Completed. No record is Idle. */
export const goalRecordSchema = z.object({
  id: z.string().min(1),
  text: z.string().min(1),
  status: z.enum(["active", "completed"]),
  setAt: z.number(),
  /** The sender who set it (may stop, pause and resume it besides admins). */
  setBy: z.string().optional(),
  completedAt: z.number().optional(),
  /** What completed it (`inference`: the goal inference read the agent's reply as achieving it). */
  completedBy: z.enum(["command", "phrase", "supervisor", "inference"]).optional(),
  /**
   * Inferred from the conversation (`goals.inferFromConversation`), not set by `/goal`: informational only — never
   * autonomous, never a goal budget, and never replacing an explicit active goal.
   */
  inferred: z.boolean().optional(),
  /** Present for an autonomous goal. */
  auto: autonomousStateSchema.optional(),
});

export type GoalRecord = z.output<typeof goalRecordSchema>;
export type AutonomousState = z.output<typeof autonomousStateSchema>;
export type AutonomousStatus = z.output<typeof autonomousStatusSchema>;
export type GoalVerdict = z.output<typeof goalVerdictSchema>;

/**
 * The goal stored in a session's settings. Contract: undefined for Idle (nothing stored) and for a value that is not
 * a goal record (written by something else): a broken record is never acted on.
 */
export function goalOf(settings: Readonly<Record<string, unknown>>): GoalRecord | undefined {
  const stored = settings[GOAL_SETTINGS_KEY];
  // Most sessions have no goal: no parse (a failed one builds an error with its issues) on every turn.
  if (stored === undefined) return undefined;
  const parsed = goalRecordSchema.safeParse(stored);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Whether the session's autonomous goal is running: after a restart it resumes by itself, so the restart's
 * "reply 'continue'" notice and `onRestart: "resume"` leave the session to it.
 */
export function goalRunsItself(session: { readonly settings: Readonly<Record<string, unknown>> }): boolean {
  const goal = goalOf(session.settings);
  return goal?.status === "active" && goal.auto?.status === "running";
}

/** Whether an autonomous run can still go on (running, or paused and resumable). */
export function isLiveAutonomous(goal: GoalRecord | undefined): boolean {
  return goal?.status === "active" && (goal.auto?.status === "running" || goal.auto?.status === "paused");
}
