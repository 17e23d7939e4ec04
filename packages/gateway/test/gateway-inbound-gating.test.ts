import { afterEach, describe, expect, it, vi } from "vitest";
import type { GatewayLogger } from "../src/logging/gateway-logger.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

function recordingLogger() {
  const lines: { level: string; fields: object; message?: string }[] = [];
  const logger: GatewayLogger = {
    info: (fields, message) => void lines.push({ level: "info", fields, ...(message ? { message } : {}) }),
    warn: (fields, message) => void lines.push({ level: "warn", fields, ...(message ? { message } : {}) }),
    error: (fields, message) => void lines.push({ level: "error", fields, ...(message ? { message } : {}) }),
  };
  return { logger, lines };
}

const group = { chatType: "group" as const, chatId: "g1", sender: { id: "ann", name: "Ann" } };

describe("inbound gating", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("answers in a group only when mentioned or replied to, and never its own messages", async () => {
    h = await startHarness({ script: ["answer to mention", "answer to reply"] });
    await h.send({ ...group, text: "chatting among ourselves" });
    expect(h.streamFn.calls).toHaveLength(0);
    await h.send({ ...group, text: "@bot hi", mentionsBot: true });
    await h.send({ ...group, text: "and this?", replyToBot: true });
    await h.send({ ...group, text: "my own echo", mentionsBot: true, sender: { id: "bot", name: "Bot", isBot: true } });
    expect(h.streamFn.calls).toHaveLength(2);
    expect(h.channel.transcript("g1")).toEqual(["answer to mention", "answer to reply"]);
  });

  it("ignores a group that is not on the allowlist, with one log line saying how to allow it", async () => {
    const { logger, lines } = recordingLogger();
    h = await startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [{ channel: "test", groups: { allowed: { requireMention: false } } }],
      },
      script: ["in the allowed group"],
      gateway: { logger },
    });
    await h.send({ ...group, chatId: "other", text: "hello", mentionsBot: true });
    await h.send({ ...group, chatId: "other", text: "hello again", mentionsBot: true });
    await h.send({ ...group, chatId: "allowed", text: "no mention needed here" });
    expect(h.channel.transcript("other")).toEqual([]);
    expect(h.channel.transcript("allowed")).toEqual(["in the allowed group"]);
    const hints = lines.filter((line) => line.message?.includes("not in the allowlist"));
    expect(hints).toHaveLength(1);
  });

  it("answers only allowlisted DM senders under the allowlist policy", async () => {
    h = await startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [{ channel: "test", dmPolicy: "allowlist", allowFrom: ["ann"] }],
      },
      script: ["hi Ann"],
    });
    await h.send({ text: "hi", sender: { id: "mallory", name: "Mallory" } });
    await h.send({ text: "hi", sender: { id: "ann", name: "Ann" } });
    expect(h.channel.transcript("dm-mallory")).toEqual([]);
    expect(h.channel.transcript("dm-ann")).toEqual(["hi Ann"]);
  });

  it("stops answering another bot after the hop limit, until a person speaks again", async () => {
    h = await startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [{ channel: "test", groupPolicy: "open", allowBots: true, botHopLimit: 2 }],
      },
      script: () => "beep",
    });
    const otherBot = { ...group, mentionsBot: true, sender: { id: "bot2", name: "Bot Two", isBot: true } };
    for (let i = 0; i < 5; i++) await h.send({ ...otherBot, text: `ping ${i}` });
    expect(h.streamFn.calls).toHaveLength(2);
    await h.send({ ...group, mentionsBot: true, text: "a person" });
    await h.send({ ...otherBot, text: "ping again" });
    expect(h.streamFn.calls).toHaveLength(4);
  });

  it("ignores other bots by default", async () => {
    h = await startHarness();
    await h.send({ text: "hello", sender: { id: "bot2", name: "Bot Two", isBot: true } });
    expect(h.streamFn.calls).toHaveLength(0);
  });

  it("answers a platform event once even when it is delivered twice", async () => {
    h = await startHarness({ script: ["once"] });
    await h.send({ text: "hi", eventId: "evt-1", messageId: "m1" });
    await h.send({ text: "hi", eventId: "evt-1", messageId: "m1" });
    expect(h.streamFn.calls).toHaveLength(1);
    expect(h.channel.transcript("dm-user-1")).toEqual(["once"]);
  });

  it("caps the messages one session accepts per window", async () => {
    vi.useFakeTimers();
    try {
      h = await startHarness({ script: () => "ok", gateway: { rateCap: { messages: 2, perMs: 60_000 } } });
      for (let i = 0; i < 4; i++) await h.send({ text: `m${i}` });
      expect(h.streamFn.calls).toHaveLength(2);
      // The chat hears once per window that it is too fast, not once per dropped message.
      const tooFast = () => h.channel.transcript("dm-user-1").filter((text) => text.includes("faster than I can"));
      await vi.advanceTimersByTimeAsync(10);
      expect(tooFast()).toHaveLength(1);
      expect(tooFast()[0]).toContain("for up to 60 seconds");
      await vi.advanceTimersByTimeAsync(60_000);
      await h.send({ text: "later" });
      expect(h.streamFn.calls).toHaveLength(3);
      for (let i = 0; i < 3; i++) await h.send({ text: `again ${i}` });
      await vi.advanceTimersByTimeAsync(10);
      expect(tooFast()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
