import { SUBGOAL_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import type { Harness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CHAT, startSubgoalHarness } from "./subgoal-harness.js";

describe("the active subgoal in /status (subgoal pruning through the context extension)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const lastReply = () => h?.channel.transcript(CHAT).at(-1);

  it("shows the active subgoal once the extraction after a turn has named it, and that call came after the turn's", async () => {
    h = await startSubgoalHarness({
      pruning: ["subgoal"],
      script: (context): ScriptedTurn => (context.systemPrompt === SUBGOAL_PROMPT ? "Fix the login bug" : "On it."),
    });
    await h.send({ text: "/status" });
    expect(lastReply()).toContain("**Subgoal** none yet");
    await h.send({ text: "please fix the login bug" });
    await vi.waitFor(() => expect(h?.streamFn.calls.some((c) => c.context.systemPrompt === SUBGOAL_PROMPT)).toBe(true));
    await vi.waitFor(async () => {
      await h?.send({ text: "/status" });
      expect(lastReply()).toContain("**Subgoal** Fix the login bug");
    });
    const prompts = h.streamFn.calls.map((c) => (c.context.systemPrompt === SUBGOAL_PROMPT ? "extract" : "turn"));
    expect(prompts).toEqual(["turn", "extract"]);
  });

  it("keeps the subgoal in the session's settings: it survives the session being let go while idle, until /new", async () => {
    h = await startSubgoalHarness({
      pruning: ["subgoal"],
      gateway: { idleEvictMs: 0 },
      script: (context): ScriptedTurn => (context.systemPrompt === SUBGOAL_PROMPT ? "Plan the trip" : "Sure."),
    });
    await h.send({ text: "help me plan a trip" });
    const key = (await h.store.listSessions())[0]!.key;
    await vi.waitFor(async () => expect((await h?.store.getSession(key))?.settings.subgoals).toBeDefined());
    await h.gateway.idle();
    await h.send({ text: "/status" });
    expect(lastReply()).toContain("**Subgoal** Plan the trip");
    await h.send({ text: "/new" });
    await h.gateway.idle();
    expect((await h.store.getSession(key))?.settings.subgoals).toBeUndefined();
    await h.send({ text: "/status" });
    expect(lastReply()).toContain("**Subgoal** none yet");
  });

  it("takes up a registry stored before the feature moved out of the gateway (same key, same format)", async () => {
    h = await startSubgoalHarness({
      pruning: ["subgoal_mig"],
      script: (context): ScriptedTurn => (context.systemPrompt === SUBGOAL_PROMPT ? "NONE" : "Done."),
    });
    await h.send({ text: "/status" });
    const key = (await h.store.listSessions())[0]!.key;
    const stored = {
      subgoals: [{ id: 1, description: "Ship the release", state: "active", start: 0, end: 2 }],
      nextId: 2,
    };
    const session = await h.store.getSession(key);
    await h.store.updateSession(key, { settings: { ...session?.settings, subgoals: stored } });
    await h.send({ text: "/status" });
    expect(lastReply()).toContain("**Subgoal** Ship the release");
    // The session's tracker starts from it: the extraction after the next turn is told the active subgoal.
    await h.send({ text: "tag it" });
    await vi.waitFor(() => expect(h?.streamFn.calls.some((c) => c.context.systemPrompt === SUBGOAL_PROMPT)).toBe(true));
    const extraction = h.streamFn.calls.find((c) => c.context.systemPrompt === SUBGOAL_PROMPT);
    expect(JSON.stringify(extraction?.context.messages)).toContain("Ship the release");
    await h.send({ text: "/status" });
    expect(lastReply()).toContain("**Subgoal** Ship the release");
  });

  it("has no subgoal line and makes no extraction when subgoal pruning is off (the default)", async () => {
    h = await startSubgoalHarness({ script: ["On it."] });
    await h.send({ text: "hello" });
    await h.send({ text: "/status" });
    expect(lastReply()).not.toContain("Subgoal");
    expect(h.streamFn.calls).toHaveLength(1);
  });
});
