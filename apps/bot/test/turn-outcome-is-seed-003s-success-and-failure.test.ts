import type { AgentEndReason } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { nextStreaks } from "../src/skill-drafts/signature-streaks.js";
import { turnOutcomeOf } from "../src/skill-drafts/turn-outcome.js";

// Seed 003 steps 19–20: a turn that ends on its own is a success; max turns, an error or an abort is a failure.
const ended = (reason: AgentEndReason, outcome: "completed" | "aborted" | "failed" = "completed") => ({
  outcome,
  result: {
    messages: [],
    reason,
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
  },
});

describe("a turn's outcome for its signature's streak", () => {
  it("is a success when the run completed, a failure on max turns, an error or an abort", () => {
    expect(turnOutcomeOf(ended("completed"))).toBe("success");
    expect(turnOutcomeOf(ended("max_turns"))).toBe("failure");
    expect(turnOutcomeOf(ended("error", "failed"))).toBe("failure");
    expect(turnOutcomeOf(ended("aborted", "aborted"))).toBe("failure");
  });

  it("is neutral when the turn never started, was cut at the output limit or halted by a denied call", () => {
    expect(turnOutcomeOf({ outcome: "not-started", result: undefined })).toBe("neutral");
    expect(turnOutcomeOf(ended("length"))).toBe("neutral");
    expect(turnOutcomeOf(ended("policy"))).toBe("neutral");
  });

  it("moves only its own signature's streak: a failure resets it, a neutral turn keeps it", () => {
    const two = { "deploy-kubernetes-staging": 2, "backup-database-nightly": 1 };
    expect(nextStreaks(two, "deploy-kubernetes-staging", "neutral")).toEqual({ streaks: two, draft: false });
    expect(nextStreaks(two, "deploy-kubernetes-staging", "failure")).toEqual({
      streaks: { "backup-database-nightly": 1 },
      draft: false,
    });
    expect(nextStreaks(two, "deploy-kubernetes-staging", "success")).toEqual({
      streaks: { "backup-database-nightly": 1 },
      draft: true,
    });
  });
});
