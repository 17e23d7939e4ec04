import { ChannelError, renderReplyChunks } from "@chorus/gateway";
import { InboundCollector, longMarkdownReply } from "@chorus/gateway-testing";
import { type FakeSlack, startFakeSlack, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { SLACK_CAPABILITIES, type SlackChannel } from "../src/index.js";
import { type SlackTestOptions, slackChannelOn } from "./slack-channel-on.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

/** A Socket Mode fake with a short ping interval, shut down after the test. */
async function startFake(): Promise<FakeSlack> {
  return cleanup.track(await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 }));
}

/** A started channel on the fake (account "sl-main" unless given), its inbound messages collected in `inbox`. */
async function startChannel(
  f: FakeSlack,
  options: SlackTestOptions = {},
  inbox = new InboundCollector(),
): Promise<SlackChannel> {
  const channel = cleanup.track(slackChannelOn(f, { accountId: "sl-main", ...options }));
  await channel.start(inbox.sink);
  return channel;
}

function botTexts(f: FakeSlack, channelId: string): string[] {
  return f
    .conversation(channelId)
    .filter((m) => m.bot_id !== undefined)
    .map((m) => m.text);
}

describe("Slack channel: sending, editing and the working indication through the WebClient", () => {
  it("sends into a thread; answers a top-level message at top level unless replyInThread is set", async () => {
    const fake = await startFake();
    const c = await startChannel(fake);
    const general = fake.channels.general;
    const question = await fake.injectMention({ text: "question", alsoAsMessage: false });
    const questionTs = String(question.item.event.ts);

    const topLevel = await c.send(
      { chatType: "group", chatId: general, replyToMessageId: questionTs },
      { text: "answer at top level" },
    );
    const inThread = await c.send({ chatType: "group", chatId: general, threadId: questionTs }, { text: "in thread" });
    expect(topLevel.threadId).toBeUndefined();
    expect(inThread.threadId).toBe(questionTs);
    await c.stop();

    const threaded = await startChannel(fake, { accountId: "sl-threads", replyInThread: true });
    const underQuestion = await threaded.send(
      { chatType: "group", chatId: general, replyToMessageId: questionTs },
      { text: "answer under the question" },
    );
    expect(underQuestion.threadId).toBe(questionTs);
    const replies = fake.conversation(general).filter((m) => m.bot_id !== undefined);
    expect(replies.map((m) => [m.text, m.thread_ts])).toEqual([
      ["answer at top level", undefined],
      ["in thread", questionTs],
      ["answer under the question", questionTs],
    ]);
  });

  it("delivers a 10 000-character reply as chunks of at most 3 500 characters, in order", async () => {
    const fake = await startFake();
    const c = await startChannel(fake);
    const dm = fake.dmChannel();
    const chunks = renderReplyChunks(longMarkdownReply(10_000), SLACK_CAPABILITIES);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) await c.send({ chatType: "dm", chatId: dm }, { text: chunk });
    const landed = botTexts(fake, dm);
    expect(landed).toEqual(chunks);
    expect(landed.every((text) => text.length <= 3500)).toBe(true);
    expect(landed.at(-1)).toContain("the end");
  });

  it("edits with chat.update, and refuses a second edit in the same second without calling Slack", async () => {
    const fake = await startFake();
    const c = await startChannel(fake);
    const sent = await c.send({ chatType: "group", chatId: fake.channels.general }, { text: "draft" });
    await c.edit(sent, { text: "final" });
    await expect(c.edit(sent, { text: "final!" })).rejects.toMatchObject({ kind: "rate-limited" });
    expect(fake.callsTo("chat.update")).toHaveLength(1);
    expect(botTexts(fake, fake.channels.general)).toEqual(["final"]);
  });

  it("shows work as a reaction on the asked message and removes it with the answer", async () => {
    const fake = await startFake();
    const c = await startChannel(fake);
    const general = fake.channels.general;
    const question = await fake.injectMention({ text: "think hard", alsoAsMessage: false });
    const ts = String(question.item.event.ts);
    const target = { chatType: "group" as const, chatId: general, replyToMessageId: ts };

    await c.typing(target);
    await c.typing(target);
    expect(fake.callsTo("reactions.add").map((call) => call.body)).toEqual([
      expect.objectContaining({ channel: general, timestamp: ts, name: "eyes" }),
    ]);
    await c.send(target, { text: "done thinking" });
    expect(fake.callsTo("reactions.remove").map((call) => call.body)).toEqual([
      expect.objectContaining({ channel: general, timestamp: ts, name: "eyes" }),
    ]);
  });

  it("in a DM, marks the latest message the person sent", async () => {
    const fake = await startFake();
    const inbox = new InboundCollector();
    const channel = await startChannel(fake, {}, inbox);
    await fake.injectDm({ text: "first question" });
    const dm = await fake.injectDm({ text: "second question" });
    await inbox.byText("second question");
    const target = { chatType: "dm" as const, chatId: fake.dmChannel() };

    await channel.typing(target);
    expect(fake.callsTo("reactions.add").map((call) => call.body)).toEqual([
      expect.objectContaining({ channel: fake.dmChannel(), timestamp: dm.item.event.ts, name: "eyes" }),
    ]);
    await channel.send(target, { text: "answer" });
    expect(fake.callsTo("reactions.remove")).toHaveLength(1);
  });

  it("waits out a 429 storm: every chunk arrives exactly once and in order", async () => {
    const fake = await startFake();
    // The client's own pause between retries shortened: what is waited out here is Slack's retry-after.
    const c = await startChannel(fake, { webApiRetryDelayMs: 10 });
    fake.failNext({ method: "chat.postMessage", status: 429, times: 2, retryAfterSeconds: 1 });
    const chunks = ["first chunk", "second chunk", "third chunk"];
    for (const chunk of chunks) await c.send({ chatType: "group", chatId: fake.channels.random }, { text: chunk });
    expect(botTexts(fake, fake.channels.random)).toEqual(chunks);
    expect(fake.callsTo("chat.postMessage").filter((call) => call.status === 429)).toHaveLength(2);
  }, 20_000);

  it("rejects a send as rate-limited, with the retry-after, once a 429 streak outlasts the client's own retries", async () => {
    const fake = await startFake();
    const c = await startChannel(fake, { webApiRetryDelayMs: 10 });
    fake.failNext({ method: "chat.postMessage", status: 429, times: 3, retryAfterSeconds: 1 });
    const refused = await c
      .send({ chatType: "group", chatId: fake.channels.random }, { text: "later" })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ChannelError);
    expect(refused).toMatchObject({ kind: "rate-limited", retryable: true, retryAfterMs: 1000 });
    expect(botTexts(fake, fake.channels.random)).toEqual([]);
  }, 20_000);

  it("maps platform refusals to ChannelError kinds", async () => {
    const fake = await startFake();
    const c = await startChannel(fake);
    const refused = await c.send({ chatType: "group", chatId: "C0NOPE" }, { text: "nobody" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChannelError);
    expect(refused).toMatchObject({ kind: "not-found" });
    await expect(
      c.edit({ messageId: "1.000001", chatId: fake.channels.general, sentAt: Date.now() }, { text: "gone" }),
    ).rejects.toMatchObject({ kind: "not-found" });
  });
});
