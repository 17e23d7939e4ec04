import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("preview mode", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("streams by editing one message no faster than editRate, rolls over at the limit, and ends with the full text", async () => {
    vi.useFakeTimers();
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`);
    const full = words.join(" ");
    h = await startHarness({
      script: [
        {
          blocks: [{ type: "text", text: full, chunks: words.map((w, i) => (i === 0 ? w : ` ${w}`)) }],
          tokenDelayMs: 100,
        },
      ],
      channel: { capabilities: { maxMessageLength: 300, markup: "plain", editRate: { edits: 2, perMs: 1000 } } },
      gateway: { replyMode: "preview" },
    });
    const editTimes = new Map<string, number[]>();
    const realEdit = h.channel.edit.bind(h.channel);
    h.channel.edit = async (message, outbound) => {
      const times = editTimes.get(message.messageId) ?? [];
      times.push(Date.now());
      editTimes.set(message.messageId, times);
      return realEdit(message, outbound);
    };
    await h.channel.inject({ text: "stream please" });
    await vi.advanceTimersByTimeAsync(20_000);
    await h.gateway.idle();

    // Edits of each message are at least perMs / edits = 500 ms apart.
    let edits = 0;
    for (const times of editTimes.values()) {
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(500);
      edits += times.length;
    }
    expect(edits).toBeGreaterThan(3);
    // Rolled over: more than one message, each within the limit, together the whole reply.
    const chat = h.channel.transcript("dm-user-1");
    expect(chat.length).toBeGreaterThan(1);
    for (const text of chat) expect(text.length).toBeLessThanOrEqual(300);
    expect(chat.join(" ").split(/\s+/)).toEqual(words);
  });
});
