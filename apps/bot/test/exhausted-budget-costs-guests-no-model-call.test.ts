import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  everythingSentTo,
  modelRequests,
  PEOPLE,
  sentText,
  startTelegramBot,
  type TelegramBot,
} from "./support/telegram-bot-fixture.js";

// The agent has a daily budget and subgoal-aware pruning (a model call after every turn). The owner's research with a
// sub-agent uses the day's budget up; the sub-agent's spend is the agent's, and after that a guest's messages in the
// group cost no model call at all — neither the turn's nor the subgoal extraction's.
let t: TelegramBot;

beforeAll(async () => {
  t = await startTelegramBot(["budgets: { dailyTokens: 100000 }", "compaction: { pruning: [subgoal] }"]);
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe("an exhausted budget through the real bot", () => {
  it("books a sub-agent's spend under the agent that spawned it, listed as sub-agents in /usage", async () => {
    const { telegram, openai } = t;
    openai.enqueue(
      [
        { type: "tool_call", name: "spawn_agent", args: { agent: "researcher", task: "what is in the workspace?" } },
        { type: "usage", input: 10, output: 10 },
      ],
      // The researcher's report, then the agent's answer: together they use the day's budget up.
      [
        { type: "text", text: "The workspace is empty." },
        { type: "usage", input: 20_000, output: 20_000 },
      ],
      [
        { type: "text", text: "Nothing there yet." },
        { type: "usage", input: 30_000, output: 30_000 },
      ],
    );
    await telegram.injectDm({ text: "what is in the workspace?" });
    await sentText(telegram, telegram.user.id, "Nothing there yet.");
    await modelRequests(openai, 3);
    await telegram.injectDm({ text: "/usage" });
    await telegram.waitFor(() => everythingSentTo(telegram, telegram.user.id).includes("sub-agents: today"), 15_000);
    const usage = everythingSentTo(telegram, telegram.user.id);
    expect(usage).toContain("sub-agents: today 40000 tokens");
    expect(usage).toMatch(/assistant: today 100020 tokens/);
    expect(usage).toContain("each call reserves its input plus up to 8192 output tokens");
    expect(usage).not.toContain("researcher");
  }, 90_000);

  it("answers a guest's messages with the refusal and asks the model nothing", async () => {
    const { telegram, openai } = t;
    const before = openai.requests.length;
    for (const text of ["hello?", "anyone there?"]) {
      await telegram.injectGroupMessage({ from: PEOPLE.guest, text });
      await telegram.waitFor(
        () => (everythingSentTo(telegram, telegram.group.id).match(/Budget exhausted/g) ?? []).length >= 1,
        15_000,
      );
    }
    await telegram.waitFor(
      () => (everythingSentTo(telegram, telegram.group.id).match(/Budget exhausted/g) ?? []).length >= 2,
      15_000,
    );
    // Time for a subgoal extraction after the refused turns to reach the model, if one were made.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(openai.requests.length).toBe(before);
    expect(everythingSentTo(telegram, telegram.group.id)).toContain(
      "agent assistant's daily budget of 100000 tokens is exhausted",
    );
  }, 60_000);
});
