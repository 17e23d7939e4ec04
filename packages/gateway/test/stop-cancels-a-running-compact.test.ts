import { DEFAULT_SUMMARY_PROMPT, type StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const CHAT = "dm-user-1";

/** Settles with the promise's value, or with "still running" after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "still running"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"still running">((resolve) => {
    timer = setTimeout(() => resolve("still running"), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe("/stop during /compact", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("cancels the summary call at once, says so, and leaves the stored conversation as it was", async () => {
    let summaries = 0;
    h = await startHarness({
      script: (context: StreamContext): ScriptedTurn => {
        if (context.systemPrompt !== DEFAULT_SUMMARY_PROMPT) return "ok";
        summaries++;
        // The first summary stalls (a slow model); the one after the stop answers at once.
        return summaries === 1 ? { text: "Summary: never finished.", endDelayMs: 15_000 } : "Summary: done.";
      },
    });
    const long = "x ".repeat(12_000);
    for (const text of [long, long, "short"]) await h.send({ text });
    const key = (await h.store.listSessions())[0]!.key;
    const before = await h.store.readTranscript(key);

    const compacting = h.channel.inject({ text: "/compact" });
    await vi.waitFor(() => expect(summaries).toBe(1));
    const stoppedAt = performance.now();
    const stopping = h.channel.inject({ text: "/stop" });
    expect(await within(compacting, 5_000)).not.toBe("still running");
    const took = performance.now() - stoppedAt;
    await stopping;
    await h.gateway.idle();

    expect(took).toBeLessThan(2_000);
    const chat = h.channel.transcript(CHAT);
    expect(chat).toContain("Stopped the compaction; the conversation is unchanged.");
    expect(chat).toContain("Stopped the current task.");
    expect(chat.join("\n")).not.toContain("Compacted the conversation");
    // Nothing half-written: the stored transcript and settings are as before the /compact.
    expect(await h.store.readTranscript(key)).toEqual(before);
    expect((await h.store.getSession(key))?.settings.lastCompaction).toBeUndefined();

    // The session is not left busy: the next message is answered from the whole conversation, and /compact works.
    await h.send({ text: "still there?" });
    expect(chat.length).toBeLessThan(h.channel.transcript(CHAT).length);
    expect(h.channel.transcript(CHAT).at(-1)).toBe("ok");
    expect(JSON.stringify(h.streamFn.calls.at(-1)?.context.messages)).not.toContain("Summary:");
    await h.send({ text: "/compact" });
    expect(h.channel.transcript(CHAT).at(-1)).toMatch(/^Compacted the conversation: ~\d+ → ~\d+ tokens\.$/);
    expect(JSON.stringify((await h.store.readTranscript(key))[0]?.message)).toContain("Summary: done.");
  }, 30_000);
});
