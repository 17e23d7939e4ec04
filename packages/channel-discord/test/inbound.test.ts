import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeDiscord, startFakeDiscord } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordChannel, type DiscordChannel } from "../src/index.js";

let fake: FakeDiscord | undefined;
const channels: DiscordChannel[] = [];

afterEach(async () => {
  await Promise.all(channels.splice(0).map((channel) => channel.stop()));
  await fake?.close();
  fake = undefined;
});

async function started(f: FakeDiscord, accountId: string, token = f.token) {
  const channel = createDiscordChannel({ accountId, token, restApi: f.restApi });
  channels.push(channel);
  const inbox = new InboundCollector();
  await channel.start(inbox.sink);
  return { channel, inbox };
}

describe("Discord channel: inbound messages through discord.js", () => {
  it("normalises DMs, guild messages, mentions, replies, threads and other bots", async () => {
    fake = await startFakeDiscord();
    const { channel, inbox } = await started(fake, "dc-main");
    const botId = fake.bots[0]!.user.id;
    const { general, thread } = fake.guild;

    const dm = await fake.injectDm({ content: "hello in private" });
    expect(await inbox.byText("hello in private")).toMatchObject({
      channel: "discord",
      accountId: "dc-main",
      chatType: "dm",
      chatId: fake.dmChannel().id,
      messageId: dm.item.id,
      eventId: dm.item.id,
      sender: { id: fake.user.id, name: "alice", isBot: false },
      mentionsBot: false,
      replyToBot: false,
    });

    await fake.injectChannelMessage({ content: "just chatting" });
    expect(await inbox.byText("just chatting")).toMatchObject({
      chatType: "group",
      chatId: general.id,
      guildId: fake.guild.id,
      mentionsBot: false,
      replyToBot: false,
    });

    await fake.injectMention({ content: "what time is it?" });
    expect(await inbox.byText("what time is it?")).toMatchObject({ chatType: "group", mentionsBot: true });

    await fake.injectThreadMessage({ content: "inside a thread" });
    expect(await inbox.byText("inside a thread")).toMatchObject({ chatId: general.id, threadId: thread.id });

    await fake.injectBotMessage({ content: "beep" });
    expect(await inbox.byText("beep")).toMatchObject({ sender: { id: fake.otherBot.id, isBot: true } });

    const sent = await channel.send({ chatType: "group", chatId: general.id }, { text: "I am the bot" });
    const botMessage = fake.conversation(general.id).find((m) => m.id === sent.messageId)!;
    await fake.injectReply({ content: "replying to you", to: botMessage });
    expect(await inbox.byText("replying to you")).toMatchObject({ replyToBot: true, mentionsBot: false });

    // The bot's own messages, echoed back by Discord, never reach the sink.
    expect(inbox.messages.some((m) => m.sender.id === botId)).toBe(false);
  });

  it("delivers /agents as a message whose interaction answers ephemerally", async () => {
    fake = await startFakeDiscord();
    const { inbox } = await started(fake, "dc-main");
    expect(fake.registeredCommands().map((c) => c.name)).toEqual([
      "agents",
      "status",
      "new",
      "stop",
      "goal",
      "usage",
      "schedule",
    ]);

    const delivery = await fake.injectSlashCommand({ name: "agents", inDm: true });
    expect(delivery.ok).toBe(true);
    const command = await inbox.byText("/agents");
    expect(command).toMatchObject({ chatType: "dm", chatId: fake.dmChannel().id, mentionsBot: true });
    expect(command.sender.id).toBe(fake.user.id);

    await command.interaction?.respond("the fleet: 0 agents", { ephemeral: true });
    const callback = await fake.waitForCall("createInteractionResponse");
    expect(callback.body).toMatchObject({ type: 4, data: { content: "the fleet: 0 agents", flags: 64 } });

    await command.interaction?.respond("and a follow-up", { ephemeral: false });
    const followUp = await fake.waitForCall("executeWebhook");
    expect(followUp.body).toMatchObject({ content: "and a follow-up" });

    await fake.injectSlashCommand({ name: "agents", options: [{ name: "args", type: 3, value: "kill run_1" }] });
    expect(await inbox.byText("/agents kill run_1")).toMatchObject({
      chatType: "group",
      chatId: fake.guild.general.id,
      guildId: fake.guild.id,
    });
  });

  it("defers a command nobody answered in time (ephemerally for /agents), so the late answer still lands", async () => {
    fake = await startFakeDiscord();
    const { inbox } = await started(fake, "dc-main");
    await fake.injectSlashCommand({ name: "agents" });
    const command = await inbox.byText("/agents");

    const deferred = await fake.waitForCall("createInteractionResponse", 1, 10_000);
    expect(deferred.body).toMatchObject({ type: 5, data: { flags: 64 } });
    await command.interaction?.respond("late fleet", { ephemeral: true });
    const edited = await fake.waitForCall("editWebhookMessage");
    expect(edited.body).toMatchObject({ content: "late fleet" });
  }, 15_000);

  it("a RESUME with replayed events delivers every message once, with the message id as eventId", async () => {
    fake = await startFakeDiscord({ heartbeatIntervalMs: 1_000 });
    const { inbox } = await started(fake, "dc-main");
    const before = await fake.injectChannelMessage({ content: "before the drop" });
    await inbox.byText("before the drop");

    expect(fake.dropConnection({ replayDelivered: 1 })).toBe(true);
    const missed = await fake.injectChannelMessage({ content: "while disconnected" });
    await fake.waitForCall("gateway.resume");
    await fake.waitForSession();
    await fake.injectChannelMessage({ content: "after the resume" });
    await inbox.byText("after the resume");

    expect(inbox.messages.map((m) => m.text)).toEqual(["before the drop", "while disconnected", "after the resume"]);
    expect(inbox.messages[0]?.eventId).toBe(before.item.id);
    expect(inbox.messages[1]?.eventId).toBe(missed.item.id);
    expect(fake.callsTo("gateway.identify")).toHaveLength(1);
  });

  it("runs two bot accounts side by side; each sees its own mention", async () => {
    fake = await startFakeDiscord({ bots: [{}, {}] });
    const one = await started(fake, "dc-one", fake.bots[0]!.token);
    const two = await started(fake, "dc-two", fake.bots[1]!.token);

    await fake.injectDm({ content: "to the second bot", bot: fake.bots[1]!.token });
    await fake.injectMention({ content: "hey second", bot: fake.bots[1]!.token });

    expect(await two.inbox.byText("to the second bot")).toMatchObject({ accountId: "dc-two", chatType: "dm" });
    expect(await two.inbox.byText("hey second")).toMatchObject({ accountId: "dc-two", mentionsBot: true });
    const seenByOne = await one.inbox.waitFor((m) => m.text.endsWith("hey second"));
    expect(seenByOne).toMatchObject({ accountId: "dc-one", mentionsBot: false });
    expect(one.inbox.messages.map((m) => m.text)).not.toContain("to the second bot");
  });
});
