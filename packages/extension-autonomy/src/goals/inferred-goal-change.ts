import type { GoalRecord } from "./goal-record.js";
import { type GoalChange, UNCHANGED } from "./goal-storage.js";

/** What one goal inference concluded about a turn. */
export interface InferredGoalReading {
  /** The goal the user's message states; undefined for none. */
  readonly goal: string | undefined;
  /** Whether the agent's reply achieved the inferred goal being worked on. */
  readonly completed: boolean;
}

/** Whether an inference may change this goal: Idle, Completed (any origin), or an active inferred goal. */
export function inferenceMayChange(goal: GoalRecord | undefined): boolean {
  return goal === undefined || goal.status === "completed" || goal.inferred === true;
}

/**
 * Seed 002's goal state machine driven by an inference:
 * Idle ──(a message stating a goal)──► Active(inferred); Active(inferred) ──(the reply achieved it)──► Completed;
 * Completed ──(a message stating a goal)──► Active(new, inferred); Active(inferred) ──(another goal stated)──►
 * Active(that goal). An explicit active goal (`/goal`, autonomous or not) is never touched: `/goal` wins.
 * Contract: pure; UNCHANGED when nothing moves.
 *
 * @example
 * inferredGoalChange(undefined, { goal: "plan a trip to Rome", completed: false }, Date.now(), "id-1");
 * // → { id: "id-1", text: "plan a trip to Rome", status: "active", inferred: true, setAt: … }
 */
export function inferredGoalChange(
  current: GoalRecord | undefined,
  reading: InferredGoalReading,
  at: number,
  newId: string,
): GoalChange {
  if (!inferenceMayChange(current)) return UNCHANGED;
  if (current?.status === "active") {
    if (reading.completed) return { ...current, status: "completed", completedAt: at, completedBy: "inference" };
    if (reading.goal === undefined || sameGoal(reading.goal, current.text)) return UNCHANGED;
  } else if (reading.goal === undefined) {
    return UNCHANGED;
  }
  return { id: newId, text: reading.goal, status: "active", setAt: at, inferred: true };
}

function sameGoal(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
