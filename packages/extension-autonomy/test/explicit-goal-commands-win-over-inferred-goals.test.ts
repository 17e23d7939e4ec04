import type { GatewayConfigInput } from "@chorus/gateway";
import { HARNESS_CONFIG } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import type { GoalRecord } from "../src/goals/goal-record.js";
import { goalOf } from "../src/goals/goal-record.js";
import { UNCHANGED } from "../src/goals/goal-storage.js";
import { inferredGoalChange } from "../src/goals/inferred-goal-change.js";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { inferenceScript, inferred, isInferenceCall, ROME_GOAL, tripScript } from "./fixtures/inference-script.js";

// An explicit `/goal` always wins over a goal inferred from the conversation (seed 002, goals.inferFromConversation).

const KEY = "main:main:test:dm:user-1";
const DM = "dm-user-1";
const ROME = "I'd like to visit Rome for three days, can you help me with a plan?";
const CONFIG: GatewayConfigInput = {
  ...HARNESS_CONFIG,
  agents: [{ id: "main", model: "fake-model", goals: { inferFromConversation: true } }],
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const inferenceCalls = () => h!.streamFn.calls.filter((call) => isInferenceCall(call.context)).length;

async function storedGoal() {
  const session = await h!.store.getSession(KEY);
  return session === undefined ? undefined : goalOf(session.settings);
}

describe("explicit /goal commands win over inferred goals", () => {
  it("an explicit active goal is never replaced, and no inference call is made while it is active", async () => {
    h = await startHarness({ script: tripScript(), config: CONFIG });
    await h.send({ text: "/goal write the release notes" });
    await h.send({ text: ROME });
    await h.send({ text: "Which sights first?" });
    expect(inferenceCalls()).toBe(0);
    const goal = await storedGoal();
    expect(goal).toMatchObject({ text: "write the release notes", status: "active" });
    expect(goal?.inferred).toBeUndefined();
  });

  it("/goal <text> replaces an inferred goal, /done completes one, /goal clear clears one", async () => {
    h = await startHarness({ script: tripScript(), config: CONFIG });
    await h.send({ text: ROME });
    expect((await storedGoal())?.inferred).toBe(true);
    await h.send({ text: "/goal book the flights" });
    const explicit = await storedGoal();
    expect(explicit).toMatchObject({ text: "book the flights", status: "active", setBy: "user-1" });
    expect(explicit?.inferred).toBeUndefined();

    await h.send({ text: "/clear" });
    await h.send({ text: ROME });
    expect(await storedGoal()).toMatchObject({ text: ROME_GOAL, inferred: true, status: "active" });
    await h.send({ text: "/done" });
    expect(await storedGoal()).toMatchObject({ text: ROME_GOAL, status: "completed", completedBy: "command" });
    await h.send({ text: "/goal" });
    expect(h.channel.transcript(DM).at(-1)).toBe(`**Goal (inferred, completed)**: ${ROME_GOAL}`);

    await h.send({ text: ROME });
    expect((await storedGoal())?.status).toBe("active");
    await h.send({ text: "/goal clear" });
    expect(h.channel.transcript(DM).at(-1)).toBe(`Goal cleared: ${ROME_GOAL}`);
    expect(await storedGoal()).toBeUndefined();
  });

  it("a command or /new typed while an inference is under way makes its answer void", async () => {
    // The inference answers only after 150 ms: the command comes in meanwhile.
    const slow = () => ({ text: inferred(ROME_GOAL), endDelayMs: 150 });
    for (const command of ["/goal book the flights", "/new"]) {
      h = await startHarness({ script: inferenceScript(slow), config: CONFIG });
      const turn = h.send({ text: ROME });
      for (let i = 0; i < 200 && inferenceCalls() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(inferenceCalls()).toBe(1);
      await h.send({ text: command });
      await turn;
      await h.gateway.idle();
      const goal = await storedGoal();
      if (command === "/new") expect(goal).toBeUndefined();
      else expect(goal).toMatchObject({ text: "book the flights", status: "active" });
      expect(goal?.inferred).toBeUndefined();
      await h.close();
      h = undefined;
    }
  });

  it("the state machine leaves an explicit active goal, autonomous or not, as it is", () => {
    const explicit: GoalRecord = { id: "g1", text: "ship 1.0", status: "active", setAt: 1 };
    const auto: GoalRecord = {
      ...explicit,
      auto: {
        status: "running",
        maxTurns: 5,
        turns: 1,
        stuckCount: 0,
        supervisorFails: 0,
        trust: "owner",
        updatedAt: 1,
      },
    };
    for (const goal of [explicit, auto]) {
      expect(inferredGoalChange(goal, { goal: "something else", completed: false }, 2, "g2")).toBe(UNCHANGED);
      expect(inferredGoalChange(goal, { goal: undefined, completed: true }, 2, "g2")).toBe(UNCHANGED);
    }
  });
});
