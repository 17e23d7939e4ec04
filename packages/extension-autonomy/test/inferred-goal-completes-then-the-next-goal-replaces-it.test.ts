import type { GatewayConfigInput } from "@chorus/gateway";
import { HARNESS_CONFIG } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { goalOf } from "../src/goals/goal-record.js";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { ROME_GOAL, tripScript } from "./fixtures/inference-script.js";

// Seed 002's machine for inferred goals: Active ──(agent signals completion)──► Completed ──(new user message with a
// goal)──► Active(new goal). Completion is signalled by the inference reading the reply, or by a completion phrase.

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

async function storedGoal() {
  const session = await h!.store.getSession(KEY);
  return session === undefined ? undefined : goalOf(session.settings);
}

/** The agent writes the itinerary when asked for it ("Day 1: …"), wraps up on "thanks", else echoes. */
const agent = (text: string) =>
  text.includes("itinerary please")
    ? "Day 1: Colosseum. Day 2: Vatican. Day 3: Trastevere."
    : text.includes("thanks")
      ? "Task complete."
      : `echo: ${text}`;

describe("an inferred goal completes, then the next stated goal replaces it", () => {
  it("the inference reads the reply as achieving it: Completed, quietly; the next goal stated is a new Active one", async () => {
    h = await startHarness({ script: tripScript(agent), config: CONFIG });
    await h.send({ text: ROME });
    const first = await storedGoal();
    expect(first).toMatchObject({ text: ROME_GOAL, status: "active", inferred: true });

    await h.send({ text: "Which sights first?" });
    expect((await storedGoal())?.status).toBe("active");
    await h.send({ text: "The itinerary please" });
    expect(await storedGoal()).toMatchObject({ id: first?.id, status: "completed", completedBy: "inference" });
    // No status line for a goal the user never set: the chat holds only the agent's replies.
    expect(h.channel.transcript(DM).filter((line) => !line.startsWith("echo: ") && !line.startsWith("Day 1:"))).toEqual(
      [],
    );
    await h.send({ text: "/status" });
    expect(h.channel.transcript(DM).at(-1)!.split("\n").at(-1)).toBe(`**Goal** (inferred, completed) ${ROME_GOAL}`);

    await h.send({ text: "Now help me budget the trip" });
    const next = await storedGoal();
    expect(next).toMatchObject({ text: "Budget the Rome trip", status: "active", inferred: true });
    expect(next?.id).not.toBe(first?.id);
  });

  it("a completion phrase in a reply without tool calls completes an inferred goal too, without a status line", async () => {
    h = await startHarness({ script: tripScript(agent), config: CONFIG });
    await h.send({ text: ROME });
    await h.send({ text: "great, thanks" });
    expect(await storedGoal()).toMatchObject({ text: ROME_GOAL, status: "completed", completedBy: "phrase" });
    expect(h.channel.transcript(DM).at(-1)).toBe("Task complete.");
  });
});
