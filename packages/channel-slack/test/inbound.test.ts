import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeSlack, startFakeSlack } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackChannel, type SlackChannel } from "../src/index.js";

let fake: FakeSlack | undefined;
const channels: SlackChannel[] = [];

afterEach(async () => {
  await Promise.all(channels.splice(0).map((channel) => channel.stop()));
  await fake?.close();
  fake = undefined;
});

async function started(
  f: FakeSlack,
  accountId: string,
  extra: { respondToAllMessages?: boolean; bot?: number; clientPingTimeoutMs?: number } = {},
) {
  const bot = f.bots[extra.bot ?? 0]!;
  const channel = createSlackChannel({
    accountId,
    mode: "socket",
    botToken: bot.botToken,
    appToken: bot.appToken,
    slackApiUrl: f.apiUrl,
    respondToAllMessages: extra.respondToAllMessages ?? false,
    ...(extra.clientPingTimeoutMs === undefined ? {} : { clientPingTimeoutMs: extra.clientPingTimeoutMs }),
  });
  channels.push(channel);
  const inbox = new InboundCollector();
  await channel.start(inbox.sink);
  await f.waitForSocket(bot.botToken);
  return { channel, inbox };
}

describe("Slack channel in Socket Mode: inbound messages through bolt", () => {
  it("normalises a DM, a mention and a mention in a thread; a plain channel message is not delivered", async () => {
    fake = await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 });
    const { inbox } = await started(fake, "sl-main");

    const dm = await fake.injectDm({ text: "hello in private" });
    expect(await inbox.byText("hello in private")).toMatchObject({
      channel: "slack",
      accountId: "sl-main",
      chatType: "dm",
      chatId: fake.dmChannel(),
      messageId: dm.item.event.ts,
      eventId: dm.item.event_id,
      guildId: fake.teamId,
      sender: { id: fake.user.id, isBot: false },
      mentionsBot: false,
      replyToBot: false,
    });

    await fake.injectChannelMessage({ text: "just chatting" });
    const mention = await fake.injectMention({ text: "what time is it?" });
    expect(await inbox.byText("what time is it?")).toMatchObject({
      chatType: "group",
      chatId: fake.channels.general,
      eventId: mention.item.event_id,
      mentionsBot: true,
    });
    const threaded = await fake.injectMention({ text: "in the thread", threadTs: "1700000000.000100" });
    expect(await inbox.byText("in the thread")).toMatchObject({
      threadId: "1700000000.000100",
      eventId: threaded.item.event_id,
    });
    // The mention's twin `message` event and the unaddressed message were not delivered.
    expect(inbox.messages.map((m) => m.text)).toEqual(["hello in private", "what time is it?", "in the thread"]);
  });

  it("with respondToAllMessages delivers unaddressed channel messages with mentionsBot false, mentions once", async () => {
    fake = await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 });
    const { inbox } = await started(fake, "sl-main", { respondToAllMessages: true });
    await fake.injectChannelMessage({ text: "just chatting" });
    await fake.injectMention({ text: "are you there?" });
    await fake.injectBotMessage({ text: "beep" });

    expect(await inbox.byText("just chatting")).toMatchObject({ chatType: "group", mentionsBot: false });
    expect(await inbox.byText("are you there?")).toMatchObject({ mentionsBot: true });
    expect(await inbox.byText("beep")).toMatchObject({ sender: { isBot: true } });
    expect(inbox.messages.filter((m) => m.text === "are you there?")).toHaveLength(1);
  });

  it("a thread reply to the bot's message counts as a reply to the bot", async () => {
    fake = await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 });
    const { channel, inbox } = await started(fake, "sl-main");
    const sent = await channel.send({ chatType: "group", chatId: fake.channels.general }, { text: "I am the bot" });
    const botMessage = fake.conversation(fake.channels.general).find((m) => m.ts === sent.messageId)!;
    await fake.injectReply({ text: "replying to you", to: botMessage });
    expect(await inbox.byText("replying to you")).toMatchObject({
      replyToBot: true,
      mentionsBot: false,
      threadId: sent.messageId,
    });
  });

  it("a redelivered event carries the same eventId", async () => {
    fake = await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 });
    const { inbox } = await started(fake, "sl-main");
    const first = await fake.injectDm({ text: "say it twice" });
    await inbox.byText("say it twice");
    await fake.redeliver(first.item.event_id);
    await inbox.waitForCount(2);
    expect(inbox.messages.map((m) => m.eventId)).toEqual([first.item.event_id, first.item.event_id]);
  });

  it("delivers /agents, /goal and /chorus <command> with a responder that answers ephemerally", async () => {
    fake = await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 });
    const { inbox } = await started(fake, "sl-main");
    await fake.injectSlashCommand({ command: "/agents", text: "kill a1" });
    const agents = await inbox.byText("/agents kill a1");
    expect(agents).toMatchObject({ chatType: "group", chatId: fake.channels.general, mentionsBot: true });
    expect(agents.sender.id).toBe(fake.user.id);
    await agents.interaction?.respond("killed a1", { ephemeral: true });
    expect((await fake.waitForCall("response_url")).body).toMatchObject({
      text: "killed a1",
      response_type: "ephemeral",
    });

    await fake.injectSlashCommand({ command: "/chorus", text: "status" });
    expect(await inbox.byText("/status")).toMatchObject({ mentionsBot: true });

    await fake.injectSlashCommand({ command: "/goal", text: "pause 1a2b3c4d" });
    expect(await inbox.byText("/goal pause 1a2b3c4d")).toMatchObject({ mentionsBot: true });
  });

  it("keeps receiving after Slack refreshes the link and after the link drops", async () => {
    fake = await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 });
    // A short ping timeout also shortens the client's wait before it reconnects.
    const { inbox } = await started(fake, "sl-main", { clientPingTimeoutMs: 300 });
    expect(fake.disconnectSocket()).toBe(1);
    await fake.waitForCall("apps.connections.open", 2);
    await fake.waitForSocket();
    await fake.injectDm({ text: "after the refresh" });
    await inbox.byText("after the refresh");

    expect(fake.dropSocket()).toBe(1);
    const offline = fake.injectDm({ text: "sent while offline" });
    await fake.waitForCall("apps.connections.open", 3, 15_000);
    expect((await offline).ok).toBe(true);
    expect(await inbox.byText("sent while offline")).toMatchObject({ chatType: "dm" });
  }, 20_000);

  it("runs two apps side by side, each with its own accountId", async () => {
    fake = await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000, bots: [{}, {}] });
    const one = await started(fake, "sl-one", { bot: 0 });
    const two = await started(fake, "sl-two", { bot: 1 });
    await fake.injectDm({ text: "to the second app", bot: fake.bots[1]!.botToken });
    await fake.injectMention({ text: "hey first", bot: fake.bots[0]!.botToken, alsoAsMessage: false });

    expect(await two.inbox.byText("to the second app")).toMatchObject({ accountId: "sl-two", chatType: "dm" });
    expect(await one.inbox.byText("hey first")).toMatchObject({ accountId: "sl-one", mentionsBot: true });
    expect(one.inbox.messages.map((m) => m.text)).toEqual(["hey first"]);
    expect(two.inbox.messages.map((m) => m.text)).toEqual(["to the second app"]);
  });
});
