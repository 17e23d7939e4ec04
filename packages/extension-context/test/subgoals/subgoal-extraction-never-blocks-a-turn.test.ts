import { SUBGOAL_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import type { Harness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { CHAT, startSubgoalHarness } from "./subgoal-harness.js";

describe("subgoal extraction between turns", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("NEVER blocks a turn: a hung extraction leaves the next messages answered, and no second one starts", async () => {
    let turn = 0;
    h = await startSubgoalHarness({
      pruning: ["subgoal_mig"],
      script: (context): ScriptedTurn =>
        context.systemPrompt === SUBGOAL_PROMPT ? { fault: "hang", ignoreSignal: true } : `answer ${++turn}`,
    });
    await h.send({ text: "one" });
    await h.send({ text: "two" });
    await h.send({ text: "three" });
    expect(h.channel.transcript(CHAT)).toEqual(["answer 1", "answer 2", "answer 3"]);
    expect(h.streamFn.calls.filter((c) => c.context.systemPrompt === SUBGOAL_PROMPT)).toHaveLength(1);
  });
});
