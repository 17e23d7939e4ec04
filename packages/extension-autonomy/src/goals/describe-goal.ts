import type { AutonomousState, GoalRecord } from "./goal-record.js";

/** The supervisor's last verdict as a phrase: "not yet asked", "achieved — …", "not yet — …". */
export function describeVerdict(auto: AutonomousState): string {
  const verdict = auto.lastVerdict;
  if (verdict === undefined) return "supervisor not asked yet";
  return `supervisor at turn ${verdict.turn}: ${verdict.achieved ? "achieved" : "not yet"} — ${verdict.reason}`;
}

/** An autonomous run in one line: status, turns, repeats, the last verdict and any note. */
export function describeAutonomous(auto: AutonomousState): string {
  const parts = [auto.status, `turn ${auto.turns}/${auto.maxTurns}`];
  if (auto.stuckCount > 0) parts.push(`${auto.stuckCount} repeat(s)`);
  parts.push(describeVerdict(auto));
  if (auto.note !== undefined && auto.status !== "running" && auto.status !== "achieved") parts.push(auto.note);
  return parts.join(" · ");
}

/** What /goal shows. */
export function describeGoal(goal: GoalRecord | undefined): string {
  if (goal === undefined) return "No goal is set. Set one with /goal <text>.";
  const head = `**Goal${goalMarks(goal)}**: ${goal.text}`;
  if (goal.auto === undefined) {
    return goal.status === "active" ? `${head}\n/done completes it, /clear drops it.` : head;
  }
  return `${head}\n**Autonomous**: ${describeAutonomous(goal.auto)}`;
}

/** " (inferred, completed)", " (completed)", " (inferred)" or "": how a goal's heading marks it. */
export function goalMarks(goal: GoalRecord): string {
  const marks = [
    ...(goal.inferred === true ? ["inferred"] : []),
    ...(goal.status === "completed" ? ["completed"] : []),
  ];
  return marks.length === 0 ? "" : ` (${marks.join(", ")})`;
}

/**
 * The goal's line in `/status`, marked inferred or completed as it is; none when the session is Idle.
 *
 * @example
 * goalStatusLines(goalOf(session.settings)); // ["**Goal** (inferred) plan the trip to Rome"]
 */
export function goalStatusLines(goal: GoalRecord | undefined): readonly string[] {
  return goal === undefined ? [] : [`**Goal**${goalMarks(goal)} ${goal.text}`];
}
