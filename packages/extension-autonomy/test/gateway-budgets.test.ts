import { fakeModel, type ScriptedTurn } from "@chorus/core/testing";
import type { GatewayConfigInput } from "@chorus/gateway";
import { Gateway, GatewayConfigError, TestChannel } from "@chorus/gateway";
import { modelCatalog } from "@chorus/gateway-testing";
import { MemorySessionStore, type RunRecord } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { goalOf } from "../src/goals/goal-record.js";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { autonomousTurnOf, goalScript, isSupervisorCall, verdict } from "./fixtures/goal-script.js";

/** What stored runs spent, as their usage says. */
function spendOfRuns(runs: readonly RunRecord[]): { tokens: number; cost: number } {
  return {
    tokens: runs.reduce((sum, run) => sum + run.usage.totalTokens, 0),
    cost: runs.reduce((sum, run) => sum + run.usage.cost.total, 0),
  };
}

const ADMIN = { id: "admin", name: "Admin" };
const KEY = "main:main:test:dm:admin";
/** A model that may answer at most 100 tokens: each call reserves ~100 tokens plus its estimated input. */
const SMALL = fakeModel({ maxOutput: 100 });
/** Every reply reports 1 input and 100 output tokens (within the worst case reserved for it). */
const USAGE = { input: 1, output: 100, totalTokens: 101 };

function config(budgets: Record<string, unknown>, goals: Record<string, unknown> = {}): GatewayConfigInput {
  return {
    agents: [
      {
        id: "main",
        model: "fake-model",
        budgets,
        goals: { autonomousEnabled: true, verifyInterval: 50, autonomousTurnDelayMs: 1, ...goals },
      },
    ],
    channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"] }],
  };
}

function priced(text: string, delayMs = 0): ScriptedTurn {
  return { text, usage: USAGE, endDelayMs: delayMs };
}

describe("budgets through the gateway", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("an exhausted goal budget pauses the goal and the next model call is not made", async () => {
    const script = goalScript({ agent: (turn) => priced(`step ${turn}`) });
    h = await startHarness({
      script,
      config: config({ goalTokens: 450 }),
      gateway: { models: modelCatalog([SMALL]) },
    });
    await h.send({ text: "/goal create --auto --turns 10 count", sender: ADMIN });
    // Three turns spend 303 tokens; the fourth would reserve ~100 more and is refused before any call.
    const turns = h.streamFn.calls.flatMap((call) => autonomousTurnOf(call.context) ?? []);
    expect(turns).toEqual([1, 2, 3]);
    const session = await h.store.getSession(KEY);
    const goal = session === undefined ? undefined : goalOf(session.settings);
    expect(goal?.auto).toMatchObject({ status: "paused", turns: 3 });
    expect(goal?.auto?.note).toContain("budget exhausted: the goal's budget of 450 tokens is exhausted (303 spent");
    const chat = h.channel.transcript("dm-admin");
    expect(chat).toContainEqual(expect.stringContaining("Sorry, that failed: Budget exhausted: the goal's budget"));
    expect(chat.at(-1)).toContain("⏸ Autonomous goal paused: budget exhausted — the goal's budget of 450 tokens");
    expect(spendOfRuns(await h.store.listRuns({ sessionKey: KEY })).tokens).toBe(303);
    // /agents shows the goal's spend against its budget.
    await h.send({ text: "/agents", sender: ADMIN });
    expect(h.channel.transcript("dm-admin").at(-1)).toMatch(
      /- main: “count” · paused · turn 3\/10 · .* · spent 303 tokens · \$0\.0006 of 450 tokens · `main:main:test:dm:admin`/,
    );
  });

  it("an exhausted daily budget pauses a running autonomous goal too", async () => {
    h = await startHarness({
      script: goalScript({ agent: (turn) => priced(`step ${turn}`) }),
      config: config({ dailyTokens: 250 }),
      gateway: { models: modelCatalog([SMALL]) },
    });
    await h.send({ text: "/goal create --auto --turns 10 count", sender: ADMIN });
    // Turn 1 spends 101; turn 2's worst case (~100 output + its estimated input) would pass 250: it is not made.
    expect(h.streamFn.calls.flatMap((call) => autonomousTurnOf(call.context) ?? [])).toEqual([1]);
    const session = await h.store.getSession(KEY);
    expect(session === undefined ? undefined : goalOf(session.settings)?.auto?.status).toBe("paused");
    expect(h.channel.transcript("dm-admin").at(-1)).toContain(
      "⏸ Autonomous goal paused: budget exhausted — agent main's daily budget of 250 tokens",
    );
  });

  it("concurrent turns against one daily budget never overspend", async () => {
    h = await startHarness({
      script: () => priced("working on it", 50),
      config: config({ dailyTokens: 350 }),
      gateway: { models: modelCatalog([SMALL]) },
    });
    const users = ["u1", "u2", "u3", "u4", "u5", "u6"];
    // All six arrive before any reply ends: without the reservation each would see nothing spent yet.
    await Promise.all(users.map((id) => h!.channel.inject({ text: `hello from ${id}`, sender: { id } })));
    await h.gateway.idle();
    const runs = await h.store.listRuns({ agentId: "main" });
    expect(spendOfRuns(runs).tokens).toBeLessThanOrEqual(350);
    expect(h.streamFn.calls.length).toBe(3);
    const refused = users.filter((id) =>
      h!.channel.transcript(`dm-${id}`).some((text) => text.includes("Budget exhausted: agent main's daily budget")),
    );
    expect(refused).toHaveLength(3);
  });

  it("a restarted gateway counts what the agent already spent today", async () => {
    const store = new MemorySessionStore();
    h = await startHarness({
      store,
      script: () => priced("first"),
      config: config({ dailyTokens: 150 }),
      gateway: { models: modelCatalog([SMALL]) },
    });
    await h.send({ text: "one", sender: { id: "u1" } });
    await h.close();
    h = await startHarness({
      store,
      script: () => priced("second"),
      config: config({ dailyTokens: 150 }),
      gateway: { models: modelCatalog([SMALL]) },
    });
    // A new event id: the first gateway's "in-0" is already recorded as seen.
    await h.send({ text: "two", sender: { id: "u1" }, messageId: "second-0" });
    expect(h.streamFn.calls).toHaveLength(0);
    expect(h.channel.transcript("dm-u1").at(-1)).toContain(
      "Budget exhausted: agent main's daily budget of 150 tokens is exhausted (101 spent",
    );
  });

  it("/usage shows spend per agent, per user and per goal for today and this month", async () => {
    h = await startHarness({
      script: goalScript({ agent: () => priced("step"), user: (text) => `echo: ${text}` }),
      config: config({ dailyTokens: 100_000, goalCostUsd: 5 }, { autonomousMaxTurns: 2 }),
      gateway: { models: modelCatalog([SMALL]) },
    });
    await h.send({ text: "hi", sender: { id: "u1" } });
    await h.send({ text: "/goal create --auto --turns 2 write two steps", sender: ADMIN });
    await h.send({ text: "/usage", sender: ADMIN });
    const answer = h.channel.transcript("dm-admin").at(-1) ?? "";
    // The user's echo reports no usage (the default script); the goal's two turns 101 tokens each.
    expect(answer).toContain("**Per agent**");
    expect(answer).toMatch(
      /- main: today 202 tokens · \$0\.0004; this month 202 tokens · \$0\.0004 \(budget 100000 tokens per day\)/,
    );
    expect(answer).toContain("- admin: today 202 tokens");
    expect(answer).toContain("- u1: today 0 tokens");
    expect(answer).toMatch(
      /- write two steps \[turn-limit\] `main:main:test:dm:admin`: today 202 tokens .*\(budget \$5\.00 per goal\)/,
    );
  });

  it("/usage survives a restart, with the supervisor's checks counted for their goal and its user", async () => {
    const store = new MemorySessionStore();
    const script = goalScript({
      agent: () => priced("step"),
      supervisor: () => ({
        text: verdict(true, "both steps are there"),
        usage: { input: 1, output: 49, totalTokens: 50 },
      }),
      user: () => priced("hello"),
    });
    const goals = { autonomousMaxTurns: 5, verifyInterval: 2 };
    h = await startHarness({
      store,
      script,
      config: config({ goalTokens: 10_000 }, goals),
      gateway: { models: modelCatalog([SMALL]) },
    });
    await h.send({ text: "hi", sender: { id: "u1" } });
    await h.send({ text: "/goal create --auto --turns 5 write two steps", sender: ADMIN });
    // Two turns of 101 tokens, then the supervisor's check of 50 says achieved.
    expect(h.streamFn.calls.filter((call) => isSupervisorCall(call.context))).toHaveLength(1);
    await h.close();

    h = await startHarness({
      store,
      script,
      config: config({ goalTokens: 10_000 }, goals),
      gateway: { models: modelCatalog([SMALL]) },
    });
    await h.send({ text: "/usage", sender: ADMIN, messageId: "after-restart" });
    const answer = h.channel.transcript("dm-admin").at(-1) ?? "";
    expect(answer).toMatch(/- main: today 353 tokens · \$0\.0007; this month 353 tokens/);
    expect(answer).toContain("- u1: today 101 tokens");
    expect(answer).toContain("- admin: today 252 tokens");
    expect(answer).toMatch(
      /- write two steps \[completed\] `main:main:test:dm:admin`: today 252 tokens .*\(budget 10000 tokens per goal\)/,
    );
    expect(h.streamFn.calls).toHaveLength(0);
  });

  it("an exhausted schedule budget stops the schedule without making the call, and tells its owner", async () => {
    const clock = { at: Date.parse("2026-11-25T10:00:00Z") };
    h = await startHarness({
      script: () => priced("report"),
      config: config({ scheduleTokens: 150 }),
      autonomy: { scheduleTickMs: 86_400_000 },
      gateway: { models: modelCatalog([SMALL]), now: () => clock.at },
    });
    await h.send({ text: "/schedule every 1h hourly report", sender: ADMIN });
    clock.at += 3_600_000;
    await h.autonomy.runDueSchedules();
    await h.gateway.idle();
    expect(h.streamFn.calls).toHaveLength(1);
    clock.at += 3_600_000;
    await h.autonomy.runDueSchedules();
    await h.gateway.idle();
    // The second run's call would pass 150 tokens (101 spent): it is not made, and the schedule stops.
    expect(h.streamFn.calls).toHaveLength(1);
    const [schedule] = await h.store.listSchedules();
    expect(schedule?.status).toBe("stopped");
    expect(schedule?.data).toMatchObject({ spentTokens: 101, runs: 2 });
    expect(schedule?.data.lastResult).toMatch(
      /^stopped: budget exhausted — schedule s-[0-9a-f]{8}'s budget of 150 tokens/,
    );
    expect(h.channel.transcript("dm-admin").at(-1)).toMatch(
      /^⚠️ Schedule s-[0-9a-f]{8} \(every 1h\) failed: Budget exhausted: schedule s-[0-9a-f]{8}'s budget of 150 tokens is exhausted \(101 spent/,
    );
    clock.at += 3_600_000;
    expect(await h.autonomy.runDueSchedules()).toBe(0);
  });

  it("/usage is for admins", async () => {
    h = await startHarness({ config: config({}) });
    await h.send({ text: "/usage", sender: { id: "u1" } });
    expect(h.channel.transcript("dm-u1").at(-1)).toMatch(/not authori[sz]ed/i);
  });

  it("refuses a negative budget with a clear message", () => {
    const build = () =>
      new Gateway({
        config: config({ dailyCostUsd: -1 }),
        store: new MemorySessionStore(),
        channels: [new TestChannel({ id: "test", accountId: "main" })],
        streamFn: () => {
          throw new Error("never called");
        },
        models: modelCatalog([SMALL]),
      });
    expect(build).toThrow(GatewayConfigError);
    expect(build).toThrow(/budgets\.dailyCostUsd must be 0 or more: a negative budget cannot be spent/);
  });
});
