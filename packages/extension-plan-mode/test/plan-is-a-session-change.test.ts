import { describe, expect, it } from "vitest";
import { planModeExtension } from "../src/index.js";

// Moved from the gateway's session-change-permission-rule test: `/plan` and `/plan off` change the chat's shared
// session (in a group only admins make it, unless the group grants `plan`); answering a plan changes nothing of it.

describe("which change /plan makes (its sessionChange)", () => {
  const command = planModeExtension({ agents: [] }).commands?.find((candidate) => candidate.name === "plan");
  it.each([
    [[], "plan"],
    [["off"], "plan"],
    [["approve"], undefined],
    [["reject", "do", "it", "differently"], undefined],
  ] as const)("/plan %j → %s", (args, change) => {
    expect(command?.sessionChange?.(args)).toBe(change);
  });
});
