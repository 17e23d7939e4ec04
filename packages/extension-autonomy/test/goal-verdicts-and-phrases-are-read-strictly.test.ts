import { assistantText, userMessage } from "@chorus/core/testing";
import { DEFAULT_COMPLETION_PHRASES } from "@chorus/gateway";
import { describe, expect, it } from "vitest";
import { lastAnsweredAutonomousTurn } from "../src/goals/autonomous-prompt.js";
import { signalsCompletion } from "../src/goals/completion-phrase.js";
import { parseVerdict } from "../src/goals/goal-supervisor.js";

describe("the supervisor's answer is validated", () => {
  it("takes a JSON object, also inside a code fence or a sentence", () => {
    expect(parseVerdict('{"achieved": true, "reason": "all tests pass"}')).toEqual({
      kind: "verdict",
      achieved: true,
      reason: "all tests pass",
    });
    expect(parseVerdict('```json\n{ "achieved": false, "reason": "2 left" }\n```')).toMatchObject({
      kind: "verdict",
      achieved: false,
    });
  });

  it("refuses anything else as a failed check", () => {
    expect(parseVerdict("Yes, it is done.")).toEqual({
      kind: "failed",
      error: "the supervisor did not answer with JSON",
    });
    expect(parseVerdict("{achieved: true}")).toEqual({
      kind: "failed",
      error: "the supervisor's answer is not valid JSON",
    });
    for (const text of [
      '{"achieved": "yes", "reason": "x"}',
      '{"achieved": true}',
      '{"achieved": true, "reason": " "}',
    ]) {
      expect(parseVerdict(text)).toEqual({ kind: "failed", error: "the supervisor's answer lacks achieved or reason" });
    }
  });
});

describe("completion phrases", () => {
  const phrases = [...DEFAULT_COMPLETION_PHRASES];
  const said = (text: string, calledTools = false) => signalsCompletion({ text, calledTools, aborted: false }, phrases);

  it("match whole words in any case, in a turn without tool calls", () => {
    expect(said("Done.")).toBe(true);
    expect(said("The migration is TASK   COMPLETE now")).toBe(true);
    expect(said("Finished: see the PR")).toBe(true);
  });

  it("do not match inside other words, in a turn that called tools, or in an empty reply", () => {
    expect(said("That is undone and unfinished work")).toBe(false);
    expect(said("Done.", true)).toBe(false);
    expect(said("")).toBe(false);
  });
});

describe("a verdict names the turn the supervisor read up to", () => {
  const prompt = (turn: number) =>
    userMessage(`[Autonomous goal, turn ${turn} of 10] Continue working toward the goal.`);

  it("is the last autonomous turn with an answer, not one only asked yet", () => {
    // Turn 5 ended while the supervisor of turn 4 was being asked: its verdict read step 5.
    const four = [prompt(4), assistantText("step 4")];
    expect(lastAnsweredAutonomousTurn([...four, prompt(5), assistantText("step 5")])).toBe(5);
    expect(lastAnsweredAutonomousTurn([...four, prompt(5)])).toBe(4);
    expect(lastAnsweredAutonomousTurn([userMessage("hello"), assistantText("hi")])).toBeUndefined();
  });
});
