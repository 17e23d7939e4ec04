import type { StreamContext } from "@chorus/core";
import { DEFAULT_SUMMARY_PROMPT } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { type LoopSettingsGateway, loopSettingsGateway } from "./support/loop-settings-gateway.js";

/** ~3 000 tokens: eight of them pass the 40 000-token window's default compaction point (window − 20 000). */
const LONG = "x ".repeat(6_000);

let h: LoopSettingsGateway | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function answers(): (context: StreamContext) => string {
  let turn = 0;
  return (context) => (context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "the gist" : `answer ${++turn}`);
}

async function sendLong(gateway: LoopSettingsGateway, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await gateway.send({ text: LONG });
}

const summaryCalls = (gateway: LoopSettingsGateway) =>
  gateway.streamFn.calls.filter((call) => call.context.systemPrompt === DEFAULT_SUMMARY_PROMPT);

describe("compaction.level from chorus.config.yaml (seed 003 compact.level)", () => {
  it("full (the default) summarises a conversation past its compaction point and says so in the chat", async () => {
    h = await loopSettingsGateway({}, answers());
    await sendLong(h, 8);
    expect(summaryCalls(h).length).toBeGreaterThan(0);
    expect(h.channel.transcript("dm-user-1").some((text) => text.includes("Compacted the conversation"))).toBe(true);
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("answer 8");
  }, 30_000);

  it("off: the same conversation is never compacted automatically, and every message is still answered", async () => {
    h = await loopSettingsGateway({ compaction: { level: "off" } }, answers());
    await sendLong(h, 8);
    expect(summaryCalls(h)).toEqual([]);
    const chat = h.channel.transcript("dm-user-1");
    expect(chat.some((text) => text.includes("ompact"))).toBe(false);
    expect(chat.filter((text) => text.startsWith("answer "))).toHaveLength(8);
    // Past the window's ceiling nothing makes room: the turn ends with a notice instead of a model call.
    await sendLong(h, 2);
    expect(h.channel.transcript("dm-user-1").at(-1)).toMatch(/too large to send/);
    expect(summaryCalls(h)).toEqual([]);
    // Compacting by hand still works at level off, and the conversation goes on.
    await h.send({ text: "/compact" });
    expect(summaryCalls(h)).toHaveLength(1);
    await h.send({ text: "still there?" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("answer 9");
  }, 30_000);

  it("safe: no summary either (micro-compaction only clears old tool results)", async () => {
    h = await loopSettingsGateway({ compaction: { level: "safe" } }, answers());
    await sendLong(h, 8);
    expect(summaryCalls(h)).toEqual([]);
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("answer 8");
  }, 30_000);
});
