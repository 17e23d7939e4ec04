import type { StreamContext } from "@chorus/core";
import type { GatewayConfigInput } from "@chorus/gateway";
import { HARNESS_CONFIG } from "@chorus/gateway-testing";
import { MemorySessionStore } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { goalOf } from "../src/goals/goal-record.js";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { isInferenceCall, ROME_GOAL, tripScript } from "./fixtures/inference-script.js";

// Seed 002 "Goal Lifecycle": with `goals.inferFromConversation` the goal comes from the conversation itself —
// informational only, shown in /goal and /status, given to the model only through `{current_goal}` when configured.

const KEY = "main:main:test:dm:user-1";
const DM = "dm-user-1";
const ROME = "I'd like to visit Rome for three days, can you help me with a plan?";

function config(agent: Record<string, unknown>): GatewayConfigInput {
  return { ...HARNESS_CONFIG, agents: [{ id: "main", model: "fake-model", ...agent }] };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const inferenceCalls = () => h!.streamFn.calls.filter((call) => isInferenceCall(call.context));
const agentCalls = (): StreamContext[] =>
  h!.streamFn.calls.filter((call) => !isInferenceCall(call.context)).map((call) => call.context);

async function storedGoal() {
  const session = await h!.store.getSession(KEY);
  return session === undefined ? undefined : goalOf(session.settings);
}

describe("goals inferred from the conversation (goals.inferFromConversation)", () => {
  it("is off by default: no inference call is made and no goal appears", async () => {
    h = await startHarness({ script: tripScript() });
    await h.send({ text: ROME });
    await h.send({ text: "Which sights first?" });
    expect(inferenceCalls()).toHaveLength(0);
    expect(h.streamFn.calls).toHaveLength(2);
    expect(await storedGoal()).toBeUndefined();
    await h.send({ text: "/goal" });
    expect(h.channel.transcript(DM).at(-1)).toBe("No goal is set. Set one with /goal <text>.");
  });

  it("on: the first message's goal is stored with the session as inferred, shown in /goal and /status, told to no one", async () => {
    const store = new MemorySessionStore();
    h = await startHarness({ store, script: tripScript(), config: config({ goals: { inferFromConversation: true } }) });
    await h.send({ text: ROME });
    expect(await storedGoal()).toMatchObject({ text: ROME_GOAL, status: "active", inferred: true });
    expect(h.channel.transcript(DM)).toEqual([`echo: ${ROME}`]);
    // One small call after the turn, booked against the session as goal inference, reading the message and reply.
    const [call] = inferenceCalls();
    expect(call?.options).toMatchObject({ sessionId: KEY, purpose: "goal_inference" });
    expect(JSON.stringify(call?.context.messages)).toContain(`echo: ${ROME}`);

    await h.send({ text: "/goal" });
    expect(h.channel.transcript(DM).at(-1)).toBe(
      `**Goal (inferred)**: ${ROME_GOAL}\n/done completes it, /clear drops it.`,
    );
    await h.send({ text: "/status" });
    expect(h.channel.transcript(DM).at(-1)!.split("\n").at(-1)).toBe(`**Goal** (inferred) ${ROME_GOAL}`);

    // Stored durably with the session: a restart still shows it.
    await h.close();
    h = await startHarness({ store, script: tripScript(), config: config({ goals: { inferFromConversation: true } }) });
    await h.send({ text: "/goal", messageId: "after-restart" });
    expect(h.channel.transcript(DM).at(-1)).toContain(`**Goal (inferred)**: ${ROME_GOAL}`);
  });

  it("fills {current_goal} where the agent's prompt has it (trackInSystemPrompt), and reaches the model nowhere else", async () => {
    const goals = { inferFromConversation: true, trackInSystemPrompt: true };
    h = await startHarness({
      script: tripScript(),
      config: config({ systemPrompt: "Help. Goal: {current_goal}.", goals }),
    });
    await h.send({ text: ROME });
    await h.send({ text: "Which sights first?" });
    expect(agentCalls().map((context) => context.systemPrompt)).toEqual(["Help. Goal: .", `Help. Goal: ${ROME_GOAL}.`]);
    await h.close();

    // A prompt without the placeholder, or the tracking off: the goal is inferred, yet no agent call carries it.
    for (const agent of [
      { systemPrompt: "Help.", goals },
      { systemPrompt: "Help. Goal: {current_goal}.", goals: { inferFromConversation: true } },
    ]) {
      h = await startHarness({ script: tripScript(), config: config(agent) });
      await h.send({ text: ROME });
      await h.send({ text: "Which sights first?" });
      expect((await storedGoal())?.text).toBe(ROME_GOAL);
      expect(agentCalls()).toHaveLength(2);
      for (const context of agentCalls()) expect(JSON.stringify(context)).not.toContain(ROME_GOAL);
      await h.close();
      h = undefined;
    }
  });
});
