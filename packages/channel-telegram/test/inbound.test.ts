import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeTelegram, startFakeTelegram } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel, type TelegramChannel } from "../src/index.js";

let fake: FakeTelegram | undefined;
const channels: TelegramChannel[] = [];

afterEach(async () => {
  await Promise.all(channels.splice(0).map((channel) => channel.stop()));
  await fake?.close();
  fake = undefined;
});

async function started(f: FakeTelegram, accountId: string, token = f.token) {
  const channel = createTelegramChannel({ accountId, token, apiRoot: f.apiRoot });
  channels.push(channel);
  const inbox = new InboundCollector();
  await channel.start(inbox.sink);
  return { channel, inbox };
}

describe("Telegram channel: inbound messages through grammy and the runner", () => {
  it("normalises DMs, groups, mentions, replies, topics and commands", async () => {
    fake = await startFakeTelegram();
    const { inbox } = await started(fake, "tg-main");
    const botId = fake.bots[0]?.user.id;

    const dm = await fake.injectDm({ text: "hello in private" });
    expect(await inbox.byText("hello in private")).toMatchObject({
      channel: "telegram",
      accountId: "tg-main",
      chatType: "dm",
      chatId: String(fake.user.id),
      messageId: String(dm.item.message_id),
      sender: { id: String(fake.user.id), name: "Alice", isBot: false },
      mentionsBot: false,
      replyToBot: false,
    });
    expect((await inbox.byText("hello in private")).eventId).toMatch(new RegExp(`^${botId}:\\d+$`));

    await fake.injectGroupMessage({ text: "just chatting" });
    expect(await inbox.byText("just chatting")).toMatchObject({
      chatType: "group",
      chatId: String(fake.group.id),
      mentionsBot: false,
      replyToBot: false,
    });
    expect((await inbox.byText("just chatting")).threadId).toBeUndefined();

    await fake.injectMention({ text: "what time is it?" });
    expect(await inbox.byText("what time is it?")).toMatchObject({ chatType: "group", mentionsBot: true });

    await fake.injectTopicMessage({ text: "in a topic", threadId: 42 });
    expect(await inbox.byText("in a topic")).toMatchObject({
      chatId: String(fake.forum.id),
      threadId: "42",
      mentionsBot: false,
    });

    await fake.injectCommand({ command: "agents@chorus_test_bot", args: "list", chat: fake.group });
    expect(await inbox.byText("/agents list")).toMatchObject({ chatType: "group", mentionsBot: true });
    await fake.injectCommand({ command: "agents@other_bot", chat: fake.group });
    expect(await inbox.byText("/agents@other_bot")).toMatchObject({ mentionsBot: false });

    await fake.injectBotMessage({ text: "beep from another bot" });
    expect(await inbox.byText("beep from another bot")).toMatchObject({
      sender: { id: String(fake.otherBot.id), isBot: true },
      mentionsBot: false,
    });
  });

  it("counts a reply to the bot and a text_mention of the bot as addressed to it", async () => {
    fake = await startFakeTelegram();
    const { channel, inbox } = await started(fake, "tg-main");
    const sent = await channel.send({ chatType: "group", chatId: String(fake.group.id) }, { text: "I am the bot" });
    const botMessage = fake.conversation(fake.group.id).find((m) => String(m.message_id) === sent.messageId);
    expect(botMessage).toBeDefined();

    await fake.injectReply({ text: "replying to you", to: botMessage! });
    expect(await inbox.byText("replying to you")).toMatchObject({ replyToBot: true, mentionsBot: false });

    const bot = fake.bots[0]!.user;
    await fake.injectUpdate(fake.token, {
      message: {
        message_id: 9001,
        date: Math.floor(Date.now() / 1000),
        chat: fake.group,
        from: fake.user,
        text: "hey Chorus, look",
        entities: [{ type: "text_mention", offset: 4, length: 6, user: bot } as never],
      },
    });
    expect(await inbox.byText("hey Chorus, look")).toMatchObject({ mentionsBot: true });
  });

  it("survives failing getUpdates calls and still receives the message", async () => {
    fake = await startFakeTelegram();
    fake.failNext({ method: "getUpdates", status: 502 });
    const { inbox } = await started(fake, "tg-main");
    await fake.injectDm({ text: "after the outage" });
    expect(await inbox.byText("after the outage")).toMatchObject({ chatType: "dm" });
    expect(fake.callsTo("getUpdates").filter((call) => call.status === 502)).toHaveLength(1);
  }, 15_000);

  it("registers /agents /status /new /stop /goal /usage /schedule with setMyCommands on start", async () => {
    fake = await startFakeTelegram();
    await started(fake, "tg-main");
    const call = await fake.waitForCall("setMyCommands");
    const commands = (call.body as { commands: Array<{ command: string }> | string }).commands;
    const list = typeof commands === "string" ? (JSON.parse(commands) as Array<{ command: string }>) : commands;
    expect(list.map((c) => c.command)).toEqual(["agents", "status", "new", "stop", "goal", "usage", "schedule"]);
  });

  it("runs two bots side by side, each with its own accountId and event ids", async () => {
    fake = await startFakeTelegram({ bots: [{}, {}] });
    const first = await started(fake, "tg-one", fake.bots[0]!.token);
    const second = await started(fake, "tg-two", fake.bots[1]!.token);

    await fake.injectDm({ text: "to the second bot", bot: fake.bots[1]!.token });
    await fake.injectGroupMessage({ text: "to everyone" });

    expect(await second.inbox.byText("to the second bot")).toMatchObject({ accountId: "tg-two" });
    const seenByOne = await first.inbox.byText("to everyone");
    const seenByTwo = await second.inbox.byText("to everyone");
    expect(seenByOne.accountId).toBe("tg-one");
    expect(seenByTwo.accountId).toBe("tg-two");
    expect(seenByOne.eventId).not.toBe(seenByTwo.eventId);
    expect(first.inbox.messages.map((m) => m.text)).not.toContain("to the second bot");
  });
});
