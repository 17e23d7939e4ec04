import { ChannelError, renderReplyChunks } from "@chorus/gateway";
import { InboundCollector, longMarkdownReply } from "@chorus/gateway-testing";
import { type FakeDiscord, startFakeDiscord, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createDiscordChannel,
  DISCORD_CAPABILITIES,
  DISCORD_EDIT_WINDOW_MS,
  type DiscordChannel,
  snowflakeAt,
} from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

async function startChannel(f: FakeDiscord): Promise<DiscordChannel> {
  const channel = cleanup.track(createDiscordChannel({ accountId: "dc-main", token: f.token, restApi: f.restApi }));
  await channel.start(new InboundCollector().sink);
  return channel;
}

function botTexts(f: FakeDiscord, channelId: string): string[] {
  return f
    .conversation(channelId)
    .filter((m) => m.author.id === f.bots[0]?.user.id)
    .map((m) => m.content);
}

describe("Discord channel: sending, editing and typing through @discordjs/rest", () => {
  it("sends into a thread and the message lands in that thread, as a reply when asked", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    const { general, thread } = fake.guild;
    const question = await fake.injectThreadMessage({ content: "question in thread" });
    const sent = await c.send(
      { chatType: "group", chatId: general.id, threadId: thread.id, replyToMessageId: question.item.id },
      { text: "answer in thread" },
    );
    expect(sent).toMatchObject({ chatId: general.id, threadId: thread.id });
    expect(fake.conversation(thread.id).at(-1)).toMatchObject({
      id: sent.messageId,
      content: "answer in thread",
      message_reference: { message_id: question.item.id },
    });
    expect(botTexts(fake, general.id)).toEqual([]);
  });

  it("answers a button press as a plain message: its interaction id is no message to reply to", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    const { general } = fake.guild;
    // Discord refuses a reference to anything but a message snowflake, and with it the whole send.
    const sent = await c.send(
      { chatType: "group", chatId: general.id, replyToMessageId: "interaction:1234" },
      { text: "approved" },
    );
    const landed = fake.conversation(general.id).at(-1);
    expect(landed).toMatchObject({ id: sent.messageId, content: "approved" });
    expect(landed?.message_reference).toBeUndefined();
  });

  it("delivers a 10 000-character reply as chunks within 2 000 characters and 17 lines, in order", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    const dm = fake.dmChannel().id;
    const chunks = renderReplyChunks(longMarkdownReply(10_000), DISCORD_CAPABILITIES);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) await c.send({ chatType: "dm", chatId: dm }, { text: chunk });

    const landed = botTexts(fake, dm);
    expect(landed).toEqual(chunks);
    expect(landed.every((text) => text.length <= 2000 && text.split("\n").length <= 17)).toBe(true);
    expect(landed.at(-1)).toContain("the end");
  });

  it("edits within 5 per 5 s, refuses the 6th and edits of hour-old messages without calling Discord", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    const target = { chatType: "group" as const, chatId: fake.guild.general.id };
    const sent = await c.send(target, { text: "draft" });
    for (let n = 1; n <= 5; n++) await c.edit(sent, { text: `draft ${n}` });
    const refused = await c.edit(sent, { text: "draft 6" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ChannelError);
    expect(refused).toMatchObject({ kind: "rate-limited" });
    expect((refused as ChannelError).retryAfterMs).toBeGreaterThan(0);

    // The message's age comes from its snowflake id, whatever sentAt the caller kept.
    const old = { ...sent, messageId: snowflakeAt(Date.now() - DISCORD_EDIT_WINDOW_MS - 60_000), sentAt: 0 };
    await expect(c.edit(old, { text: "too late" })).rejects.toMatchObject({ kind: "edit-window-expired" });
    expect(fake.callsTo("editMessage")).toHaveLength(5);
    expect(botTexts(fake, target.chatId)).toEqual(["draft 5"]);
  });

  it("sends typing to the thread's channel", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    await c.typing({ chatType: "group", chatId: fake.guild.general.id, threadId: fake.guild.thread.id });
    expect(fake.callsTo("triggerTyping").map((call) => call.params.channelId)).toEqual([fake.guild.thread.id]);
  });

  it("waits out a 429 storm: every chunk arrives exactly once and in order", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    const target = { chatType: "group" as const, chatId: fake.guild.random.id };
    fake.failNext({ method: "createMessage", status: 429, times: 3, retryAfterSeconds: 0.2 });
    const chunks = ["first chunk", "second chunk", "third chunk", "fourth chunk"];
    for (const chunk of chunks) await c.send(target, { text: chunk });

    expect(botTexts(fake, target.chatId)).toEqual(chunks);
    expect(fake.callsTo("createMessage").filter((call) => call.status === 429)).toHaveLength(3);
  }, 15_000);

  it("maps platform refusals to ChannelError kinds", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    await expect(c.send({ chatType: "group", chatId: "123456789" }, { text: "nobody" })).rejects.toMatchObject({
      kind: "not-found",
    });
    await expect(
      c.send({ chatType: "group", chatId: fake.guild.general.id }, { text: "x".repeat(2001) }),
    ).rejects.toMatchObject({ kind: "too-long" });
  });
});
