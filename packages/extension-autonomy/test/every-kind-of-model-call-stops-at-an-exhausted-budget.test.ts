import { DEFAULT_SUMMARY_PROMPT, defineTool, type StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import type { GatewayConfigInput } from "@chorus/gateway";
import { utcDay } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { contentText, goalScript, isSupervisorCall } from "./fixtures/goal-script.js";
import { subagentScript } from "./fixtures/subagent-script.js";

// Every kind of model call a session causes is reserved against its agent's budget before it is made: past an
// exhausted budget the fake model sees no call of that kind. Each call here reports 800 tokens against a day of 1000,
// so the first call of a test fits the budget and leaves it exhausted for the next (each call reserves its input, tool
// definitions included, plus the agent's maxOutputTokens, 256).
// A session title's call (@chorus/extension-titles) is proven in that package's
// title-call-is-reserved-in-the-agents-budget.test.ts.

const ADMIN = { id: "admin", name: "Admin" };
const MAX_OUTPUT = 256;

/** What a call reports having used: `spent` tokens in all. */
function usageOf(spent: number) {
  return { input: 1, output: spent - 1, totalTokens: spent };
}

function priced(text: string, spent: number): ScriptedTurn {
  return { text, usage: usageOf(spent) };
}

function config(agent: Record<string, unknown>, dailyTokens: number): GatewayConfigInput {
  return {
    agents: [{ id: "main", model: "fake-model", maxOutputTokens: MAX_OUTPUT, budgets: { dailyTokens }, ...agent }],
    channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"], groupPolicy: "open" }],
  };
}

const lastText = (context: StreamContext): string =>
  contentText((context.messages.at(-1) as { content: unknown } | undefined)?.content);

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The calls the fake model received that `is` picks out. */
function callsWhere(is: (context: StreamContext) => boolean): number {
  return h?.streamFn.calls.filter((call) => is(call.context)).length ?? 0;
}

/** What today's spend ledger holds per kind of call of agent main. */
async function spentByKind(): Promise<Record<string, number>> {
  const rows = await h!.store.listSpend({ kind: "purpose", fromPeriod: utcDay(Date.now()), toPeriod: "9999" });
  return Object.fromEntries(rows.map((row) => [row.subject, row.tokens]));
}

describe("every kind of model call stops at an exhausted budget", () => {
  it("turn: the next message's call is not made, and the refusal says what a call reserves", async () => {
    h = await startHarness({ config: config({}, 1_000), script: () => priced("ok", 800) });
    await h.send({ text: "hello", sender: ADMIN });
    await h.send({ text: "again", sender: ADMIN });
    expect(h.streamFn.calls).toHaveLength(1);
    expect(h.channel.transcript("dm-admin").at(-1)).toMatch(
      /Budget exhausted: agent main's daily budget of 1000 tokens is exhausted \(800 spent.*each call reserves its input plus up to 256 output tokens/,
    );
    expect(await spentByKind()).toEqual({ "main:turn": 800 });
  });

  it("sub-agent: its calls count against the root agent's budget, not the profile's (none)", async () => {
    const isChild = (context: StreamContext) => lastText(context) === "quick";
    h = await startHarness({
      config: config({}, 1_000),
      script: (context) => {
        const turn = subagentScript()(context);
        return typeof turn === "string" ? priced(turn, 800) : { ...turn, usage: usageOf(800) };
      },
      gateway: { agents: { main: { subagents: { helper: { description: "helps", tools: [] } } } } },
    });
    // The spawning call fits the agent's budget and uses it up: the child's first call would pass it.
    await h.send({ text: "spawn wait quick", sender: ADMIN });
    await h.gateway.idle();
    expect(callsWhere(isChild)).toBe(0);
    // Nothing is booked under the profile's name.
    const rows = await h.store.listSpend({ kind: "agent" });
    expect(rows.map((row) => [row.subject, row.tokens])).toEqual([["main", 800]]);
    expect(h.channel.transcript("dm-admin").join("\n")).toContain("Budget exhausted");
  });

  it("sub-agent: its spend is booked under the root agent and listed as sub-agents in /usage", async () => {
    h = await startHarness({
      config: config({}, 1_000_000),
      script: (context) => {
        const turn = subagentScript()(context);
        return typeof turn === "string" ? priced(turn, 100) : turn;
      },
      gateway: { agents: { main: { subagents: { helper: { description: "helps", tools: [] } } } } },
    });
    await h.send({ text: "spawn wait quick", sender: ADMIN });
    await h.gateway.idle();
    expect(h.channel.transcript("dm-admin").at(-1)).toMatch(/^done: /);
    // The child's answer ("quick result") and the parent's ("done: …"): 100 tokens each, both the agent main's.
    expect((await h.store.listSpend({ kind: "agent" })).map((row) => [row.subject, row.tokens])).toEqual([
      ["main", 200],
    ]);
    expect(await spentByKind()).toEqual({ "main:subagent": 100, "main:turn": 100 });
    await h.send({ text: "/usage", sender: ADMIN });
    expect(h.channel.transcript("dm-admin").at(-1)).toContain("  - sub-agents: today 100 tokens");
  });

  it("TACO: a large tool output's summary call is not made", async () => {
    const log = Array.from({ length: 1_000 }, (_, i) => `test ${i} passed`).join("\n");
    const exec = defineTool({
      name: "exec",
      description: "runs the tests",
      parameters: z.object({}),
      category: "exec",
      execute: () => ({ content: [{ type: "text", text: log }] }),
    });
    const isTaco = (context: StreamContext) =>
      context.systemPrompt?.startsWith("You are a concise tool-output summarizer") === true;
    h = await startHarness({
      config: config({ toolOutputCompression: { enabled: true } }, 1_000),
      script: (context) =>
        isTaco(context) ? "1000 tests passed" : { toolCalls: [{ name: "exec", args: {} }], usage: usageOf(800) },
      gateway: { agents: { main: { tools: [exec] } } },
    });
    await h.send({ text: "run the tests", sender: ADMIN });
    expect(callsWhere(isTaco)).toBe(0);
    expect(h.streamFn.calls).toHaveLength(1);
  });

  // Subgoal extraction (@chorus/extension-context) is proven the same way beside its feature:
  // packages/extension-context/test/subgoals/subgoal-extraction-is-a-budgeted-call.test.ts.

  it("compaction (automatic): the summary before a turn's call is not made", async () => {
    const isSummary = (context: StreamContext) => context.systemPrompt === DEFAULT_SUMMARY_PROMPT;
    h = await startHarness({
      config: config({}, 1_200),
      script: () => priced("noted", 1_000),
      gateway: {
        loop: {
          context: { window: 3_000, reserve: 2_500, blockingReserve: 100, compaction: { keepRecentTokens: 1 } },
        },
      },
    });
    await h.send({ text: `remember this: ${"lorem ipsum ".repeat(200)}`, sender: ADMIN });
    await h.send({ text: "and now?", sender: ADMIN });
    expect(h.streamFn.calls).toHaveLength(1);
    expect(callsWhere(isSummary)).toBe(0);
  });

  it("compaction (/compact): the summary call is not made and the chat is told why", async () => {
    // The first turn costs 100 tokens; the second (~4 800 tokens reserved for its long message) leaves too little
    // for the summary of the first.
    h = await startHarness({
      config: config({}, 5_100),
      script: (context) => priced("noted", lastText(context).length > 1_000 ? 4_900 : 100),
    });
    await h.send({ text: "hello", sender: ADMIN });
    await h.send({ text: `remember this: ${"lorem ipsum ".repeat(1_500)}`, sender: ADMIN });
    expect(h.streamFn.calls).toHaveLength(2);
    await h.send({ text: "/compact", sender: ADMIN });
    expect(h.streamFn.calls).toHaveLength(2);
    expect(h.channel.transcript("dm-admin").at(-1)).toMatch(/^Nothing was compacted \(.*Budget exhausted/);
  });

  it("goal supervisor: its check is not made, and the goal pauses", async () => {
    h = await startHarness({
      config: config({ goals: { autonomousEnabled: true, verifyInterval: 1, autonomousTurnDelayMs: 1 } }, 1_000),
      script: (context) => {
        const turn = goalScript()(context);
        return isSupervisorCall(context) ? turn : priced(String(turn), 800);
      },
    });
    await h.send({ text: "/goal create --auto --turns 5 count", sender: ADMIN });
    await h.gateway.idle();
    expect(callsWhere(isSupervisorCall)).toBe(0);
    expect(h.streamFn.calls).toHaveLength(1);
    expect(h.channel.transcript("dm-admin").at(-1)).toContain("Autonomous goal paused: budget exhausted");
  });
});
