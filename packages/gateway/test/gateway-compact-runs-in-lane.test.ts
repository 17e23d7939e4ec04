import { DEFAULT_SUMMARY_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("/compact runs in the session's lane", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("answers a message that arrives during the summary call after the compaction, and keeps it", async () => {
    vi.useFakeTimers();
    const calls: { kind: "summary" | "turn"; at: number }[] = [];
    h = await startHarness({
      script: (context): ScriptedTurn => {
        if (context.systemPrompt === DEFAULT_SUMMARY_PROMPT) {
          calls.push({ kind: "summary", at: Date.now() });
          return { text: "Summary: they talked about x.", endDelayMs: 2_000 };
        }
        calls.push({ kind: "turn", at: Date.now() });
        return `answer ${calls.length}`;
      },
    });
    const long = "x ".repeat(12_000);
    for (const text of [long, long, "short"]) {
      await h.channel.inject({ text });
      await vi.advanceTimersByTimeAsync(10);
      await h.gateway.idle();
    }

    const compacting = h.channel.inject({ text: "/compact" });
    await vi.advanceTimersByTimeAsync(500);
    await h.channel.inject({ text: "what now?" });
    await vi.advanceTimersByTimeAsync(5_000);
    await compacting;
    await h.gateway.idle();

    const summary = calls.find((call) => call.kind === "summary")!;
    const after = calls.filter((call) => call.at > summary.at);
    expect(after).toEqual([{ kind: "turn", at: summary.at + 2_000 }]);
    const chat = h.channel.transcript("dm-user-1");
    expect(chat.at(-2)).toMatch(/^Compacted the conversation: ~\d+ → ~\d+ tokens\.$/);
    expect(chat.at(-1)).toBe("answer 5");

    // The message that waited is in the stored transcript after the fresh start, before its answer.
    const key = (await h.store.listSessions())[0]!.key;
    const stored = (await h.store.readTranscript(key)).map((entry) => entry.message);
    const texts = stored.map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content.map((part) => ("text" in part ? part.text : "")).join(""),
    );
    expect(texts.at(0)).toContain("Summary: they talked about x.");
    expect(texts.slice(-2)).toEqual(["what now?", "answer 5"]);
  });
});
