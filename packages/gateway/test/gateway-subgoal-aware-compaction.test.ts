import { DEFAULT_SUMMARY_PROMPT, SUBGOAL_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GatewayConfigInput } from "../src/config/index.js";
import { GatewayConfigError } from "../src/config/index.js";
import { Gateway } from "../src/gateway/gateway.js";
import { BASE_CONFIG, type Harness, MODELS, modelCatalog, startHarness } from "./fixtures/gateway-harness.js";

function withPruning(pruning: string[]): GatewayConfigInput {
  return {
    ...BASE_CONFIG,
    agents: [{ id: "main", model: "fake-model", compaction: { pruning } }],
  } as GatewayConfigInput;
}

const textOf = (m: { content: unknown }): string =>
  typeof m.content === "string"
    ? m.content
    : (m.content as { type: string; text?: string }[]).map((p) => (p.type === "text" ? p.text : "")).join("");

describe("subgoal-aware compaction through the gateway (seed 002)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
    vi.useRealTimers();
  });

  it("refuses to start with two exclusive pruning strategies", () => {
    const start = () =>
      new Gateway({
        config: withPruning(["subgoal", "subgoal_mig"]),
        store: undefined as never,
        channels: [],
        streamFn: (() => {}) as never,
        models: modelCatalog(MODELS),
      });
    expect(start).toThrow(GatewayConfigError);
    expect(start).toThrow(/subgoal and subgoal_mig are mutually exclusive/);
  });

  it("refuses to start with a subgoal model the registry does not know", async () => {
    const config = {
      ...BASE_CONFIG,
      agents: [{ id: "main", model: "fake-model", compaction: { pruning: ["subgoal"], subgoalModel: "nope" } }],
    } as GatewayConfigInput;
    await expect(startHarness({ config })).rejects.toThrow(/compaction\.subgoalModel/);
  });

  it("shows the active subgoal in /status once the extraction after a turn has named it", async () => {
    h = await startHarness({
      config: withPruning(["subgoal"]),
      script: (context): ScriptedTurn => (context.systemPrompt === SUBGOAL_PROMPT ? "Fix the login bug" : "On it."),
    });
    await h.send({ text: "/status" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toContain("**Subgoal** none yet");
    await h.send({ text: "please fix the login bug" });
    await vi.waitFor(() => expect(h?.streamFn.calls.some((c) => c.context.systemPrompt === SUBGOAL_PROMPT)).toBe(true));
    await h.send({ text: "/status" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toContain("**Subgoal** Fix the login bug");
    // The extraction call came after the turn's own model call, never inside it.
    const prompts = h.streamFn.calls.map((c) => (c.context.systemPrompt === SUBGOAL_PROMPT ? "extract" : "turn"));
    expect(prompts).toEqual(["turn", "extract"]);
  });

  it("keeps the subgoal in the session's settings, so it survives the session being released while idle, until /new", async () => {
    h = await startHarness({
      config: withPruning(["subgoal"]),
      gateway: { idleEvictMs: 0 },
      script: (context): ScriptedTurn => (context.systemPrompt === SUBGOAL_PROMPT ? "Plan the trip" : "Sure."),
    });
    await h.send({ text: "help me plan a trip" });
    const key = (await h.store.listSessions())[0]!.key;
    await vi.waitFor(async () => expect((await h?.store.getSession(key))?.settings.subgoals).toBeDefined());
    await h.gateway.idle();
    await h.send({ text: "/status" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toContain("**Subgoal** Plan the trip");
    await h.send({ text: "/new" });
    await h.gateway.idle();
    await h.send({ text: "/status" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toContain("**Subgoal** none yet");
  });

  it("has no subgoal line in /status when subgoal pruning is off (the default)", async () => {
    h = await startHarness({ script: ["On it."] });
    await h.send({ text: "hello" });
    await h.send({ text: "/status" });
    expect(h.channel.transcript("dm-user-1").at(-1)).not.toContain("Subgoal");
    expect(h.streamFn.calls).toHaveLength(1);
  });

  it("NEVER blocks a turn on the extraction: a hung extraction leaves the next messages answered", async () => {
    let turn = 0;
    h = await startHarness({
      config: withPruning(["subgoal_mig"]),
      script: (context): ScriptedTurn =>
        context.systemPrompt === SUBGOAL_PROMPT ? { fault: "hang", ignoreSignal: true } : `answer ${++turn}`,
    });
    await h.send({ text: "one" });
    await h.send({ text: "two" });
    await h.send({ text: "three" });
    expect(h.channel.transcript("dm-user-1")).toEqual(["answer 1", "answer 2", "answer 3"]);
  });

  it("/compact keeps the active subgoal's messages verbatim after the summary", async () => {
    const summaries: number[] = [];
    h = await startHarness({
      config: withPruning(["subgoal"]),
      script: (context): ScriptedTurn => {
        if (context.systemPrompt === SUBGOAL_PROMPT) return "Migrate the database";
        if (context.systemPrompt === DEFAULT_SUMMARY_PROMPT) {
          summaries.push(context.messages.length);
          return "Summary: earlier work.";
        }
        return "ok";
      },
    });
    const long = "y ".repeat(6_000); // ~3 000 tokens; /compact keeps ~4 000 verbatim
    for (const text of [`first ${long}`, `second ${long}`, `third ${long}`]) {
      await h.send({ text });
      await vi.waitFor(() => expect(h?.streamFn.calls.at(-1)?.context.systemPrompt).toBe(SUBGOAL_PROMPT));
    }
    await h.send({ text: "/compact" });
    expect(summaries).toHaveLength(1);
    const key = (await h.store.listSessions())[0]!.key;
    const stored = (await h.store.readTranscript(key)).map((entry) => textOf(entry.message as { content: unknown }));
    // The summary, then the whole active subgoal (it began with the first message), nothing lost or doubled.
    expect(stored[0]).toContain("Summary: earlier work.");
    expect(stored.slice(1).map((t) => t.slice(0, 6))).toEqual(["first ", "ok", "second", "ok", "third ", "ok"]);
    await h.send({ text: "/status" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toContain("**Subgoal** Migrate the database");
  });

  it("without subgoal pruning, /compact summarises the same messages away", async () => {
    h = await startHarness({
      script: (context): ScriptedTurn => (context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "Summary." : "ok"),
    });
    const long = "y ".repeat(6_000);
    for (const text of [`first ${long}`, `second ${long}`, `third ${long}`]) await h.send({ text });
    await h.send({ text: "/compact" });
    const key = (await h.store.listSessions())[0]!.key;
    const stored = (await h.store.readTranscript(key)).map((entry) => textOf(entry.message as { content: unknown }));
    expect(stored.slice(1).map((t) => t.slice(0, 6))).toEqual(["second", "ok", "third ", "ok"]);
  });
});
