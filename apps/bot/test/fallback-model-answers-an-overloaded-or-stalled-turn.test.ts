import { afterEach, describe, expect, it } from "vitest";
import { type LoopSettingsGateway, loopSettingsGateway } from "./support/loop-settings-gateway.js";

const OVERLOADED = {
  fault: "error" as const,
  // The primary streams part of an answer before it gives up: that part must never reach the chat or the transcript.
  error: { kind: "overloaded" as const, message: "Overloaded", status: 529 },
  partial: { text: "Half of an answer from the pri", endDelayMs: 1_500 },
};

let h: LoopSettingsGateway | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function storedAssistantTexts(gateway: LoopSettingsGateway): Promise<string[]> {
  const [session] = await gateway.store.listSessions();
  const entries = session === undefined ? [] : await gateway.store.readTranscript(session.key);
  return entries
    .map((entry) => entry.message)
    .filter((message) => message.role === "assistant")
    .flatMap((message) => message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])));
}

describe("fallbackModels from chorus.config.yaml (seed 004 Model Fallback)", () => {
  it("an overloaded primary: the fallback answers, the chat shows a status line, the partial output is discarded", async () => {
    h = await loopSettingsGateway({ fallbackModels: ["backup"] }, [OVERLOADED, "The whole answer, from the backup."], {
      replyMode: "preview",
      typingDelayMs: 0,
    });
    await h.send({ text: "what is the weather?" });

    expect(h.streamFn.calls.map((call) => call.model.id)).toEqual(["primary", "backup"]);
    // The preview showed the primary's partial text while it streamed…
    const shown = h.channel.calls.flatMap((call) =>
      call.op === "send" || call.op === "edit" ? [call.outbound.text] : [],
    );
    expect(shown.some((text) => text.includes("Half of an answer"))).toBe(true);
    // …and that message now holds the fallback's answer; the chat says which model took over.
    const chat = h.channel.transcript("dm-user-1");
    expect(chat).toHaveLength(2);
    expect(chat).toContain("🔀 primary did not answer (overloaded); continuing with backup.");
    expect(chat).toContain("The whole answer, from the backup.");
    expect(chat.some((text) => text.includes("Half of an answer"))).toBe(false);
    expect(await storedAssistantTexts(h)).toEqual(["The whole answer, from the backup."]);
  }, 20_000);

  it("a stalled stream falls back to the next model after stallTimeoutSecs", async () => {
    h = await loopSettingsGateway({ fallbackModels: ["backup"], stallTimeoutSecs: 1 }, [
      { fault: "stall", ms: 60_000 },
      "Answered by the backup.",
    ]);
    const started = Date.now();
    await h.send({ text: "hello" });

    expect(Date.now() - started).toBeLessThan(10_000);
    expect(h.streamFn.calls.map((call) => call.model.id)).toEqual(["primary", "backup"]);
    expect(h.channel.transcript("dm-user-1")).toEqual([
      "🔀 primary did not answer (the stream stalled); continuing with backup.",
      "Answered by the backup.",
    ]);
  }, 20_000);

  it("shows no fallback line where compaction.statusLine is off, and still answers with the fallback", async () => {
    h = await loopSettingsGateway({ fallbackModels: ["backup"], compaction: { statusLine: false } }, [
      OVERLOADED,
      "From the backup.",
    ]);
    await h.send({ text: "hello" });
    expect(h.channel.transcript("dm-user-1")).toEqual(["From the backup."]);
  }, 20_000);
});
