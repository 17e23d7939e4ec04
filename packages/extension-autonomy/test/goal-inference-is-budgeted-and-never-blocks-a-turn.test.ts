import type { ScriptedTurn } from "@chorus/core/testing";
import type { GatewayConfigInput, GatewayLogger } from "@chorus/gateway";
import { utcDay } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { goalOf } from "../src/goals/goal-record.js";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { inferenceScript, inferred, isInferenceCall, ROME_GOAL, tripScript } from "./fixtures/inference-script.js";

// The goal inference is a model call like any other of a session: reserved in the agent's budget first and booked as
// `goal_inference`. It runs after the turn and is informational only: a failure is logged, it never blocks a turn,
// and an inferred goal never drives turns (it is never autonomous) nor limits them (no goal budget applies).

const ADMIN = { id: "admin", name: "Admin" };
const ROME = "I'd like to visit Rome for three days, can you help me with a plan?";

function config(goals: Record<string, unknown>, budgets: Record<string, number>): GatewayConfigInput {
  return {
    agents: [{ id: "main", model: "fake-model", maxOutputTokens: 256, goals, budgets }],
    channels: [
      {
        channel: "test",
        dmPolicy: "open",
        admins: ["admin"],
        groupPolicy: "open",
        groups: { guests: { requireMention: false, trust: "guest" } },
      },
    ],
  };
}

/** A turn that reports having used `tokens` tokens. */
function priced(turn: ScriptedTurn, tokens: number): ScriptedTurn {
  return {
    ...(typeof turn === "string" ? { text: turn } : turn),
    usage: { input: 1, output: tokens - 1, totalTokens: tokens },
  };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const inferenceCalls = () => h!.streamFn.calls.filter((call) => isInferenceCall(call.context)).length;
const agentCalls = () => h!.streamFn.calls.filter((call) => !isInferenceCall(call.context));

async function goalIn(sessionKey: string) {
  const session = await h!.store.getSession(sessionKey);
  return session === undefined ? undefined : goalOf(session.settings);
}

describe("goal inference: budgeted, fire-and-forget, informational only", () => {
  it("is reserved in the agent's budget: past an exhausted one no inference call is made, the reply still goes out", async () => {
    // The turn's call reports 800 of the day's 1000 tokens: the inference's reservation (input + 256) no longer fits.
    h = await startHarness({
      config: config({ inferFromConversation: true }, { dailyTokens: 1_000 }),
      script: tripScript((text) => priced(`echo: ${text}`, 800)),
    });
    await h.send({ text: ROME, sender: ADMIN });
    expect(inferenceCalls()).toBe(0);
    expect(h.channel.transcript("dm-admin")).toEqual([`echo: ${ROME}`]);
    expect(await goalIn("main:main:test:dm:admin")).toBeUndefined();
  });

  it("is booked as goal inference in the spend ledger and /usage", async () => {
    h = await startHarness({
      config: config({ inferFromConversation: true }, { dailyTokens: 1_000_000 }),
      script: inferenceScript(
        () => priced(inferred(ROME_GOAL), 40),
        (text) => priced(`echo: ${text}`, 100),
      ),
    });
    await h.send({ text: ROME, sender: ADMIN });
    const rows = await h.store.listSpend({ kind: "purpose", fromPeriod: utcDay(Date.now()), toPeriod: "9999" });
    expect(Object.fromEntries(rows.map((row) => [row.subject, row.tokens]))).toEqual({
      "main:turn": 100,
      "main:goal_inference": 40,
    });
    await h.send({ text: "/usage", sender: ADMIN });
    expect(h.channel.transcript("dm-admin").at(-1)).toContain("  - goal inference: today 40 tokens");
  });

  it("a failing inference is logged and changes nothing; the turn's reply went out as usual", async () => {
    const warnings: { fields: unknown; message: string | undefined }[] = [];
    const logger: GatewayLogger = {
      info: () => {},
      warn: (fields, message) => warnings.push({ fields, message }),
      error: () => {},
    };
    for (const failure of [
      "I think the user wants a holiday",
      { fault: "error", error: { kind: "overloaded", message: "busy" } } as const,
    ]) {
      h = await startHarness({
        config: config({ inferFromConversation: true }, {}),
        script: inferenceScript(() => failure),
        gateway: { logger },
      });
      await h.send({ text: ROME, sender: ADMIN });
      expect(h.channel.transcript("dm-admin")).toEqual([`echo: ${ROME}`]);
      expect(await goalIn("main:main:test:dm:admin")).toBeUndefined();
      await h.close();
      h = undefined;
    }
    const failed = warnings.filter((warning) => warning.message === "goal inference failed");
    expect(failed.map((warning) => (warning.fields as { error: string }).error)).toEqual([
      "the goal inference did not answer with JSON",
      expect.stringMatching(/^overloaded: /),
    ]);
  });

  it("a guest in a group cannot start an autonomous run through it, and its goal budget never limits turns", async () => {
    h = await startHarness({
      config: config(
        { inferFromConversation: true, autonomousEnabled: true, autonomousMinTier: "guest" },
        { goalTokens: 10 },
      ),
      script: inferenceScript(({ user }) =>
        user.includes("on your own")
          ? inferred("Keep working on your own until the Rome itinerary is done")
          : inferred(null),
      ),
    });
    const guest = { chatType: "group" as const, chatId: "guests", sender: { id: "guest", name: "Guest" } };
    await h.send({ ...guest, text: "Keep working on your own until the Rome itinerary is done" });
    await h.gateway.idle();
    const key = (await h.store.listSessions()).find((session) => session.key.includes("guests"))!.key;
    const goal = await goalIn(key);
    expect(goal).toMatchObject({ status: "active", inferred: true });
    expect(goal?.auto).toBeUndefined();
    // One turn for the guest's message and one inference: nothing ran on its own.
    expect(agentCalls()).toHaveLength(1);
    expect(inferenceCalls()).toBe(1);

    // The goal's budget (10 tokens) would refuse every call of an explicit goal; an inferred one limits nothing.
    await h.send({ ...guest, text: "And what about food?" });
    expect(agentCalls()).toHaveLength(2);
    expect(h.channel.transcript("guests").join("\n")).not.toContain("Budget exhausted");
  });
});
