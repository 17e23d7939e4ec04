import { describe, expect, it } from "vitest";
import { type Channel, ChannelError, type InboundMessage, TestChannel, type TestChannelOptions } from "../src/index.js";

/** A TestChannel started with a sink that ignores what it is given. */
async function started(options?: TestChannelOptions): Promise<TestChannel> {
  const channel = new TestChannel(options);
  await channel.start(() => {});
  return channel;
}

describe("TestChannel", () => {
  it("delivers injected messages to the sink with defaults filled in", async () => {
    const channel: TestChannel = new TestChannel({ id: "discord", accountId: "main" });
    const received: InboundMessage[] = [];
    await channel.start((message) => {
      received.push(message);
    });
    const injected = await channel.inject({ text: "hello", sender: { id: "u1" } });
    expect(received).toEqual([injected]);
    expect(injected).toMatchObject({
      channel: "discord",
      accountId: "main",
      chatType: "dm",
      chatId: "dm-u1",
      text: "hello",
      sender: { id: "u1", isBot: false },
      mentionsBot: false,
      attachments: [],
    });
    expect(injected.eventId).toBe(injected.messageId);
    await channel.stop();
    await expect(channel.inject({ text: "late" })).rejects.toThrow(/not started/);
  });

  it("records sends, edits, typing and reactions with the ids it handed out", async () => {
    const channel: Channel & TestChannel = await started();
    const target = { chatType: "group", chatId: "g1", threadId: "t1" } as const;
    await channel.typing(target);
    const first = await channel.send(target, { text: "one" });
    const second = await channel.send(target, { text: "two" });
    await channel.edit(first, { text: "one, edited" });
    await channel.react(second, "👍");
    await channel.delete(second);
    expect(first.messageId).not.toBe(second.messageId);
    expect(first).toMatchObject({ chatId: "g1", threadId: "t1" });
    expect(channel.calls.map((call) => call.op)).toEqual(["typing", "send", "send", "edit", "react", "delete"]);
    expect(channel.transcript("g1")).toEqual(["one, edited"]);
    expect(channel.messages.get(first.messageId)?.edits).toBe(1);
  });

  it("injects rate-limit failures and then recovers", async () => {
    const channel = await started();
    channel.failNext("send", undefined, 2);
    const target = { chatType: "dm", chatId: "d" } as const;
    const failure = await channel.send(target, { text: "x" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChannelError);
    expect(failure).toMatchObject({ kind: "rate-limited", retryAfterMs: 1000, retryable: true });
    await expect(channel.send(target, { text: "x" })).rejects.toThrow(ChannelError);
    await expect(channel.send(target, { text: "x" })).resolves.toMatchObject({ chatId: "d" });
    expect(channel.calls.filter((call) => call.error)).toHaveLength(2);
    expect(channel.succeeded("send")).toHaveLength(1);
  });

  it("acts like a strict platform: too-long text, unsupported operations and unknown messages are refused", async () => {
    const channel = await started({ capabilities: { maxMessageLength: 10, edit: false } });
    const target = { chatType: "dm", chatId: "d" } as const;
    await expect(channel.send(target, { text: "x".repeat(11) })).rejects.toMatchObject({ kind: "too-long" });
    const sent = await channel.send(target, { text: "ok" });
    await expect(channel.edit(sent, { text: "no" })).rejects.toMatchObject({ kind: "forbidden" });
    await expect(channel.react({ ...sent, messageId: "nope" }, "x")).rejects.toMatchObject({ kind: "not-found" });
  });

  it("lets a test wait until a number of calls have happened", async () => {
    const channel = await started();
    const waiting = channel.waitForCalls(2, "send");
    const target = { chatType: "dm", chatId: "d" } as const;
    void channel.send(target, { text: "a" });
    void channel.send(target, { text: "b" });
    await waiting;
    expect(channel.transcript("d")).toEqual(["a", "b"]);
  });

  it("refuses every operation before start and after stop, as the platform channels do", async () => {
    const channel = new TestChannel();
    const target = { chatType: "dm", chatId: "dm-u1" } as const;
    await expect(channel.send(target, { text: "early" })).rejects.toMatchObject({ kind: "unknown", retryable: false });
    await channel.start(() => {});
    const sent = await channel.send(target, { text: "on time" });
    await channel.stop();
    await expect(channel.send(target, { text: "late" })).rejects.toThrow(/not started/);
    await expect(channel.edit(sent, { text: "late" })).rejects.toThrow(/not started/);
    await expect(channel.typing(target)).rejects.toThrow(/not started/);
    await expect(channel.react(sent, "👍")).rejects.toThrow(/not started/);
    await expect(channel.delete(sent)).rejects.toThrow(/not started/);
    expect(channel.transcript("dm-u1")).toEqual(["on time"]);
  });
});
