import { describe, expect, it } from "vitest";
import { type AutonomousGoalEntry, autonomousGoalButtons } from "../src/goals/goal-fleet.js";

function entry(goalId: string, group: AutonomousGoalEntry["group"]): AutonomousGoalEntry {
  const status = { active: "running", paused: "paused", orphaned: "orphaned", completed: "achieved" } as const;
  return {
    goalId,
    sessionKey: `main:main:test:dm:${goalId}`,
    agentId: "main",
    text: goalId,
    group,
    state: {
      status: status[group],
      maxTurns: 5,
      turns: 1,
      stuckCount: 0,
      supervisorFails: 0,
      trust: "owner",
      updatedAt: 1,
    },
  };
}

describe("the goal buttons under /agents", () => {
  it("give the two most recent unfinished goals Pause or Resume and Stop: four buttons, one row on every platform", () => {
    const buttons = autonomousGoalButtons([
      entry("aaaaaaaa-0000-0000-0000-000000000000", "completed"),
      entry("bbbbbbbb-0000-0000-0000-000000000000", "active"),
      entry("cccccccc-0000-0000-0000-000000000000", "orphaned"),
      entry("dddddddd-0000-0000-0000-000000000000", "paused"),
    ]);
    expect(buttons.map((button) => button.label)).toEqual([
      "Pause bbbbbbbb",
      "Stop bbbbbbbb",
      "Resume cccccccc",
      "Stop cccccccc",
    ]);
    expect(buttons[2]?.id).toBe("/goal resume cccccccc-0000-0000-0000-000000000000");
    // Telegram's callback_data holds 64 bytes.
    expect(Math.max(...buttons.map((button) => Buffer.byteLength(button.id)))).toBeLessThanOrEqual(64);
  });
});
