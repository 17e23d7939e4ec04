import type { GoalRecord } from "./goal-record.js";

/** The chat's status lines and answers about goals (shown as notices, never stored in the transcript). */
/** Why a running goal is resumed: this process restarted, or a cluster instance took its session over. */
export type GoalResumeCause = "restart" | "takeover";

export const goalTexts = {
  completed: (goal: GoalRecord, why: string) => `✓ Goal completed: ${goal.text} (${why})`,
  set: (text: string) => `Goal set: ${text}. I will say when it is completed; /done completes it, /clear drops it.`,
  cleared: (goal: GoalRecord) => `Goal cleared: ${goal.text}`,
  none: "No goal is set. Set one with /goal <text>.",
  autoStarted: (text: string, turns: number, every: number) =>
    `🎯 Autonomous goal started: ${text} — up to ${turns} turn(s), the supervisor checks every ${every}. ` +
    "/goal stop ends it, /goal pause holds it.",
  autoResumed: (goal: GoalRecord, after: GoalResumeCause = "restart") =>
    `🎯 Resuming the autonomous goal after ${after === "restart" ? "a restart" : "its gateway instance stopped"} (turn ${(goal.auto?.turns ?? 0) + 1} of ${goal.auto?.maxTurns ?? "?"}): ${goal.text}`,
  turnLimit: (goal: GoalRecord) =>
    `⏹ Autonomous goal stopped at its turn limit (${goal.auto?.maxTurns} turns) without the supervisor confirming it: ${goal.text}`,
  stuck: (goal: GoalRecord, repeats: number) =>
    `⏹ Autonomous goal stopped: the last ${repeats} outputs were identical (turn ${goal.auto?.turns}): ${goal.text}`,
  supervisorPaused: (fails: number, error: string) =>
    `⏸ Autonomous goal paused: the supervisor failed ${fails} time(s) in a row (last: ${error}). /goal resume goes on.`,
  budgetPaused: (reason: string) =>
    `⏸ Autonomous goal paused: budget exhausted — ${reason}. No further model call was made; /goal resume goes on once there is budget again.`,
  orphaned: (goal: GoalRecord, reason: string) => `Autonomous goal orphaned (${reason}): ${goal.text}`,
} as const;
