import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

function longReply(): string {
  const lines: string[] = [];
  for (let i = 1; lines.join("\n").length < 10_000; i++)
    lines.push(`Line ${String(i).padStart(4, "0")} says hello 👋 again`);
  return lines.join("\n").slice(0, 10_000);
}

describe("long replies", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("arrive complete, in order, and within the channel's length and line limits", async () => {
    const reply = longReply();
    expect(reply.length).toBe(10_000);
    h = await startHarness({
      script: [reply],
      channel: { capabilities: { maxMessageLength: 2000, maxLines: 17, markup: "plain" } },
    });
    await h.send({ text: "tell me everything" });
    const sent = h.channel.succeeded("send").map((call) => call.outbound.text);
    expect(sent.length).toBeGreaterThan(5);
    for (const text of sent) {
      expect(text.length).toBeLessThanOrEqual(2000);
      expect(text.split("\n").length).toBeLessThanOrEqual(17);
    }
    const words = (text: string) => text.split(/\s+/).filter((word) => word !== "");
    expect(words(sent.join("\n")).join(" ") === words(reply).join(" ")).toBe(true);
    // Every chunk's platform id was kept with the sent outbox entry.
    const entry = (await h.store.listOutbox({ status: "sent" })).find((e) => e.kind === "reply");
    expect(entry?.platformMessageIds).toEqual(h.channel.succeeded("send").map((call) => call.messageId));
  });

  it("are retried after a platform rate limit without repeating the chunks already sent", async () => {
    vi.useFakeTimers();
    h = await startHarness({
      script: [longReply()],
      channel: { capabilities: { maxMessageLength: 2000, markup: "plain" } },
    });
    // The first chunk goes out; the second hits a rate limit (retry after 1 s).
    let sends = 0;
    const realSend = h.channel.send.bind(h.channel);
    h.channel.send = async (target, outbound) => {
      if (++sends === 2) h.channel.failNext("send");
      return realSend(target, outbound);
    };
    await h.channel.inject({ text: "go" });
    await vi.advanceTimersByTimeAsync(5000);
    await h.gateway.idle();
    const texts = h.channel.succeeded("send").map((call) => call.outbound.text);
    expect(new Set(texts).size).toBe(texts.length);
    const sameWords = texts.join("\n").replace(/\s+/g, " ").trim() === longReply().replace(/\s+/g, " ").trim();
    expect(sameWords).toBe(true);
    expect(h.events.some((e) => e.type === "delivery_failed" && e.willRetry)).toBe(true);
  });
});
