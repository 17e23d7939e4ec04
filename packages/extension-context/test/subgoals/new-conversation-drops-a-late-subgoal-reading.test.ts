import { SUBGOAL_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import type { Harness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { holdCalls } from "../fixtures/model-call-gates.js";
import { CHAT, startSubgoalHarness } from "./subgoal-harness.js";

describe("/new while a subgoal extraction is under way", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("the reading of the ended conversation arrives late and is neither stored nor shown", async () => {
    const hold = holdCalls("subgoals");
    h = await startSubgoalHarness({
      pruning: ["subgoal"],
      before: [hold],
      script: (context): ScriptedTurn => (context.systemPrompt === SUBGOAL_PROMPT ? "Renew the passport" : "Sure."),
    });
    await h.send({ text: "help me renew my passport" });
    await vi.waitFor(() => expect(hold.held()).toBe(1));
    const key = (await h.store.listSessions())[0]!.key;
    await h.send({ text: "/new" });
    hold.release();
    await vi.waitFor(() => expect(h?.streamFn.calls.some((c) => c.context.systemPrompt === SUBGOAL_PROMPT)).toBe(true));
    await h.gateway.idle();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the late reply's handling, had it been kept
    expect((await h.store.getSession(key))?.settings.subgoals).toBeUndefined();
    await h.send({ text: "/status" });
    expect(h.channel.transcript(CHAT).at(-1)).toContain("**Subgoal** none yet");
  });
});
