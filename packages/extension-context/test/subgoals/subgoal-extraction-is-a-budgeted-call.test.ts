import { type StreamContext, SUBGOAL_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { autonomyExtension } from "@chorus/extension-autonomy";
import type { Harness } from "@chorus/gateway-testing";
import { MemorySessionStore, utcDay } from "@chorus/store";
import { afterEach, describe, expect, it, vi } from "vitest";
import { budgetProbe } from "../fixtures/model-call-gates.js";
import { startSubgoalHarness, withCompaction } from "./subgoal-harness.js";

const isExtraction = (context: StreamContext): boolean => context.systemPrompt === SUBGOAL_PROMPT;
const ADMIN = { id: "admin", name: "Admin" };

/** Agent main with subgoal pruning and a day of `dailyTokens`; each turn reports 800 tokens. */
function budgeted(dailyTokens: number) {
  return withCompaction({ pruning: ["subgoal"] }, { maxOutputTokens: 256, budgets: { dailyTokens } });
}

const priced = (text: string): ScriptedTurn => ({ text, usage: { input: 1, output: 799, totalTokens: 800 } });

describe("subgoal extraction is a model call of the session, inside its budget", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const extractions = () => h?.streamFn.calls.filter((call) => isExtraction(call.context)) ?? [];

  it("goes through the gateway's StreamFn with the session's key and purpose subgoals, on compaction.subgoalModel", async () => {
    const probe = budgetProbe();
    h = await startSubgoalHarness({
      config: withCompaction({ pruning: ["subgoal"], subgoalModel: "fake-large" }),
      before: [probe],
      script: (context): ScriptedTurn => (isExtraction(context) ? "Book the flights" : "On it."),
    });
    await h.send({ text: "book my flights" });
    await vi.waitFor(() => expect(extractions()).toHaveLength(1));
    const key = (await h.store.listSessions())[0]!.key;
    expect(probe.reserved).toContainEqual({ sessionId: key, purpose: "subgoals" });
    expect(extractions()[0]?.model.id).toBe("fake-large");
    expect(h.streamFn.calls.find((call) => !isExtraction(call.context))?.model.id).toBe("fake-model");
  });

  it("is not made once the turn used the day's budget up", async () => {
    h = await startSubgoalHarness({
      config: budgeted(1_000),
      before: [autonomyExtension()],
      script: (context) => (isExtraction(context) ? "Fix the login bug" : priced("On it.")),
    });
    await h.send({ text: "fix the login bug", sender: ADMIN });
    await h.gateway.idle();
    expect(h.channel.transcript("dm-admin")).toEqual(["On it."]);
    expect(extractions()).toHaveLength(0);
  });

  it("is not even tried after a turn the budget refused (a guest's message): that turn made no call", async () => {
    const store = new MemorySessionStore();
    await store.recordSpend([{ kind: "agent", subject: "main", period: utcDay(Date.now()), tokens: 1_000, cost: 0 }]);
    // Outside the budget: it sees every call the session tries, also those the budget then refuses.
    const probe = budgetProbe();
    h = await startSubgoalHarness({
      store,
      config: budgeted(1_000),
      before: [probe, autonomyExtension()],
      script: () => "On it.",
    });
    for (const text of ["hi", "are you there?", "hello?"]) {
      await h.send({ text, sender: { id: "guest", name: "Guest" } });
    }
    await h.gateway.idle();
    expect(h.channel.transcript("dm-guest")).toHaveLength(3);
    expect(h.channel.transcript("dm-guest").at(-1)).toContain("Budget exhausted");
    expect(probe.reserved.map((call) => call.purpose)).not.toContain("subgoals");
    expect(h.streamFn.calls).toHaveLength(0);
  });
});
