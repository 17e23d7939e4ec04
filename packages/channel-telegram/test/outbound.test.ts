import { ChannelError, renderReplyChunks } from "@chorus/gateway";
import { InboundCollector, longMarkdownReply } from "@chorus/gateway-testing";
import { type FakeTelegram, startFakeTelegram, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel, TELEGRAM_CAPABILITIES, type TelegramChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

async function startChannel(f: FakeTelegram): Promise<TelegramChannel> {
  const channel = cleanup.track(createTelegramChannel({ accountId: "tg-main", token: f.token, apiRoot: f.apiRoot }));
  const inbox = new InboundCollector();
  await channel.start(inbox.sink);
  // As on Telegram, a bot can only write to a person who has written to it first.
  await f.injectDm({ text: "hi bot" });
  await inbox.byText("hi bot");
  return channel;
}

function botTexts(f: FakeTelegram, chatId: number): string[] {
  return f
    .conversation(chatId)
    .filter((m) => m.from?.id === f.bots[0]?.user.id)
    .map((m) => m.text ?? "");
}

describe("Telegram channel: sending, editing and typing through grammy", () => {
  it("sends into a forum topic, in HTML, and the message lands in that topic", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    const sent = await c.send(
      { chatType: "group", chatId: String(fake.forum.id), threadId: "42" },
      { text: "<b>bold</b> answer" },
    );
    expect(sent).toMatchObject({ chatId: String(fake.forum.id), threadId: "42" });
    const landed = fake.conversation(fake.forum.id).at(-1);
    // Telegram parses the HTML: the user sees the text with a bold entity.
    expect(landed).toMatchObject({ message_thread_id: 42, text: "bold answer", entities: [{ type: "bold" }] });
    expect(fake.callsTo("sendMessage").at(-1)?.body).toMatchObject({ parse_mode: "HTML" });
  });

  it("answers a button press as a plain message: its callback id is no message to reply to", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    await c.send(
      { chatType: "dm", chatId: String(fake.user.id), replyToMessageId: "callback:77" },
      { text: "approved" },
    );
    const body = fake.callsTo("sendMessage").at(-1)?.body as Record<string, unknown>;
    expect(body).toMatchObject({ text: "approved" });
    expect(body.reply_parameters).toBeUndefined();
    expect(botTexts(fake, fake.user.id).at(-1)).toBe("approved");
  });

  it("delivers a 10 000-character reply as chunks within 4 096 characters, in order", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    const chunks = renderReplyChunks(longMarkdownReply(10_000), TELEGRAM_CAPABILITIES);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) await c.send({ chatType: "dm", chatId: String(fake.user.id) }, { text: chunk });

    const sentTexts = fake.callsTo("sendMessage").map((call) => (call.body as { text: string }).text);
    expect(sentTexts).toEqual(chunks);
    expect(sentTexts.every((text) => text.length <= 4096)).toBe(true);
    // Every chunk was valid HTML that Telegram accepted, and the chat reads in order.
    const landed = botTexts(fake, fake.user.id);
    expect(landed).toHaveLength(chunks.length);
    expect(landed[0]).toContain("paragraph 1 ");
    expect(landed.at(-1)).toContain("the end");
  });

  it("edits a message, and refuses a second edit in the same second without calling Telegram", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    const target = { chatType: "dm" as const, chatId: String(fake.user.id) };
    const sent = await c.send(target, { text: "draft" });
    await c.edit(sent, { text: "draft, longer" });
    const refused = await c.edit(sent, { text: "draft, longer still" }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(ChannelError);
    expect(refused).toMatchObject({ kind: "rate-limited" });
    expect((refused as ChannelError).retryAfterMs).toBeGreaterThan(0);
    expect(fake.callsTo("editMessageText")).toHaveLength(1);
    expect(botTexts(fake, fake.user.id)).toEqual(["draft, longer"]);
  });

  it("sends typing into the topic", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    await c.typing({ chatType: "group", chatId: String(fake.forum.id), threadId: "7" });
    expect(fake.callsTo("sendChatAction").at(-1)?.body).toMatchObject({
      chat_id: fake.forum.id,
      action: "typing",
      message_thread_id: 7,
    });
  });

  it("waits out a 429 storm: every chunk arrives exactly once and in order", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    fake.failNext({ method: "sendMessage", status: 429, times: 2, retryAfterSeconds: 1 });
    const chunks = ["first chunk", "second chunk", "third chunk"];
    fake.failNext({ method: "sendMessage", status: 429, times: 1, retryAfterSeconds: 1 });
    for (const chunk of chunks) await c.send({ chatType: "dm", chatId: String(fake.user.id) }, { text: chunk });

    expect(botTexts(fake, fake.user.id)).toEqual(chunks);
    expect(fake.callsTo("sendMessage").filter((call) => call.status === 429)).toHaveLength(3);
  }, 15_000);

  it("maps platform refusals to ChannelError kinds", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    await expect(c.send({ chatType: "group", chatId: "-100999" }, { text: "nobody here" })).rejects.toMatchObject({
      kind: "not-found",
    });
    await expect(
      c.send({ chatType: "dm", chatId: String(fake.user.id) }, { text: "x".repeat(4097) }),
    ).rejects.toMatchObject({ kind: "too-long" });
    await expect(
      c.edit({ messageId: "123456", chatId: String(fake.user.id), sentAt: Date.now() }, { text: "gone" }),
    ).rejects.toMatchObject({ kind: "not-found" });
  });
});
