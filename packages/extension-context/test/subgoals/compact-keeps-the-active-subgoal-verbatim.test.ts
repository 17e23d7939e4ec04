import { DEFAULT_SUMMARY_PROMPT, SUBGOAL_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import type { Harness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CHAT, startSubgoalHarness, textOf } from "./subgoal-harness.js";

const long = "y ".repeat(6_000); // ~3 000 tokens; /compact keeps ~4 000 verbatim

describe("/compact with subgoal pruning (the context extension's layer)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function storedTexts(): Promise<string[]> {
    const key = (await h!.store.listSessions())[0]!.key;
    return (await h!.store.readTranscript(key)).map((entry) => textOf(entry.message as { content: unknown }));
  }

  it("keeps the active subgoal's messages verbatim after the summary", async () => {
    const summaries: number[] = [];
    h = await startSubgoalHarness({
      pruning: ["subgoal"],
      script: (context): ScriptedTurn => {
        if (context.systemPrompt === SUBGOAL_PROMPT) return "Migrate the database";
        if (context.systemPrompt === DEFAULT_SUMMARY_PROMPT) {
          summaries.push(context.messages.length);
          return "Summary: earlier work.";
        }
        return "ok";
      },
    });
    for (const text of [`first ${long}`, `second ${long}`, `third ${long}`]) {
      await h.send({ text });
      await vi.waitFor(() => expect(h?.streamFn.calls.at(-1)?.context.systemPrompt).toBe(SUBGOAL_PROMPT));
    }
    await h.send({ text: "/compact" });
    expect(summaries).toHaveLength(1);
    const stored = await storedTexts();
    // The summary, then the whole active subgoal (it began with the first message), nothing lost or doubled.
    expect(stored[0]).toContain("Summary: earlier work.");
    expect(stored.slice(1).map((t) => t.slice(0, 6))).toEqual(["first ", "ok", "second", "ok", "third ", "ok"]);
    await h.send({ text: "/status" });
    expect(h.channel.transcript(CHAT).at(-1)).toContain("**Subgoal** Migrate the database");
  });

  it("without subgoal pruning, summarises the same messages away", async () => {
    h = await startSubgoalHarness({
      script: (context): ScriptedTurn => (context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "Summary." : "ok"),
    });
    for (const text of [`first ${long}`, `second ${long}`, `third ${long}`]) await h.send({ text });
    await h.send({ text: "/compact" });
    expect((await storedTexts()).slice(1).map((t) => t.slice(0, 6))).toEqual(["second", "ok", "third ", "ok"]);
  });
});
