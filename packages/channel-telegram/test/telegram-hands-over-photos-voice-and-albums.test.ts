import { AttachmentFetchError, type InboundMessage, MessageNotStoredError, SessionStoreError } from "@chorus/gateway";
import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeTelegram, startFakeTelegram, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel, type TelegramChannel } from "../src/index.js";

// Issue #32 on Telegram: what people send — photos, voice notes, audio, video, documents, stickers, albums — reaches
// the gateway as attachments it can download through the channel, from Telegram's own file route only.

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 1, 2, 3, 0xff, 0xd9]);
const JPEG_2 = new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 9, 8, 7, 6, 5, 0xff, 0xd9]);
const OGG = new TextEncoder().encode("OggS\0fake opus voice note");
const MP4 = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 1, 2, 3, 4]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const CSV = new TextEncoder().encode("name,qty\napples,3\n");

async function polling(
  fake: FakeTelegram,
  sink?: (message: InboundMessage) => Promise<void>,
): Promise<{ channel: TelegramChannel; inbox: InboundCollector }> {
  const channel = cleanup.track(
    createTelegramChannel({
      accountId: "tg",
      token: fake.token,
      apiRoot: fake.apiRoot,
      longPollSeconds: 1,
      albumWaitMs: 300,
      registerCommands: false,
    }),
  );
  const inbox = new InboundCollector();
  await channel.start(
    sink === undefined
      ? inbox.sink
      : async (message) => {
          inbox.sink(message);
          await sink(message);
        },
  );
  return { channel, inbox };
}

/** The attachment's bytes as the channel downloads them. */
async function bytesOf(channel: TelegramChannel, message: InboundMessage, index = 0): Promise<Uint8Array> {
  const attachment = message.attachments[index];
  if (attachment === undefined) throw new Error(`no attachment ${index}`);
  const location = { id: attachment.id, chatId: message.chatId, messageId: message.messageId };
  return (await channel.fetchAttachment(location, { maxBytes: 1024 * 1024 })).bytes;
}

async function refusal(promise: Promise<unknown>): Promise<AttachmentFetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AttachmentFetchError);
  return error as AttachmentFetchError;
}

describe("Telegram hands over what people send", () => {
  it("a photo with its caption: the image's ids and size, downloaded byte for byte through getFile", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const { channel, inbox } = await polling(fake);
    const sent = await fake.injectMedia({ kind: "photo", bytes: JPEG, caption: "my cat" });
    const message = await inbox.byText("my cat");
    const size = sent.item.photo?.[0];
    expect(message).toMatchObject({ chatType: "dm", messageId: String(sent.item.message_id) });
    expect(message.attachments).toEqual([
      {
        id: size?.file_id,
        uniqueId: size?.file_unique_id,
        name: "photo.jpg",
        kind: "image",
        mimeType: "image/jpeg",
        sizeBytes: JPEG.byteLength,
      },
    ]);
    expect(await bytesOf(channel, message)).toEqual(JPEG);
    expect(fake.callsTo("getFile").at(-1)?.body).toMatchObject({ file_id: size?.file_id });
  });

  it("voice notes, audio, video, documents and stickers, each with its kind and type", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const { channel, inbox } = await polling(fake);
    await fake.injectMedia({ kind: "voice", bytes: OGG, caption: "voice" });
    await fake.injectMedia({ kind: "audio", bytes: MP4, fileName: "song.mp3", caption: "audio" });
    await fake.injectMedia({ kind: "video", bytes: MP4, caption: "video" });
    await fake.injectMedia({
      kind: "document",
      bytes: CSV,
      fileName: "stock.csv",
      mimeType: "text/csv",
      caption: "csv",
    });
    await fake.injectMedia({
      kind: "document",
      bytes: PNG,
      fileName: "chart.png",
      mimeType: "image/png",
      caption: "image document",
    });
    await fake.injectMedia({ kind: "sticker", bytes: PNG, caption: "static sticker" });
    await fake.injectMedia({ kind: "sticker", bytes: CSV, stickerFormat: "animated", caption: "animated sticker" });
    await fake.injectMedia({ kind: "sticker", bytes: MP4, stickerFormat: "video", caption: "video sticker" });
    const only = async (text: string) => {
      const message = await inbox.byText(text);
      expect(message.attachments).toHaveLength(1);
      return message.attachments[0];
    };
    expect(await only("voice")).toMatchObject({ kind: "voice", mimeType: "audio/ogg", sizeBytes: OGG.byteLength });
    expect(await only("audio")).toMatchObject({ kind: "audio", name: "song.mp3", mimeType: "audio/mpeg" });
    expect(await only("video")).toMatchObject({ kind: "video", mimeType: "video/mp4", sizeBytes: MP4.byteLength });
    expect(await only("csv")).toMatchObject({ kind: "document", name: "stock.csv", mimeType: "text/csv" });
    expect(await only("image document")).toMatchObject({ kind: "image", name: "chart.png", mimeType: "image/png" });
    expect(await only("static sticker")).toMatchObject({ kind: "image", mimeType: "image/webp" });
    expect(await only("animated sticker")).toMatchObject({ kind: "sticker", mimeType: "application/x-tgsticker" });
    expect(await only("video sticker")).toMatchObject({ kind: "sticker", mimeType: "video/webm" });
    for (const [text, bytes] of [
      ["voice", OGG],
      ["csv", CSV],
      ["image document", PNG],
    ] as const) {
      expect(await bytesOf(channel, await inbox.byText(text))).toEqual(bytes);
    }
  });

  it("takes a photo's largest size, and reads a caption's mention as a text's", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const { inbox } = await polling(fake);
    const caption = "@chorus_test_bot what is this?";
    const size = (n: number, side: number) => ({
      file_id: `size-${n}`,
      file_unique_id: `unique-${n}`,
      width: side,
      height: side,
      file_size: side * 10,
    });
    await fake.injectUpdate(fake.token, {
      message: {
        message_id: 4242,
        date: Math.floor(Date.now() / 1000),
        chat: fake.group,
        from: fake.user,
        photo: [size(1, 90), size(3, 1280), size(2, 320)],
        caption,
        caption_entities: [{ type: "mention", offset: 0, length: "@chorus_test_bot".length }],
      },
    });
    const message = await inbox.byText("what is this?");
    expect(message).toMatchObject({ chatType: "group", mentionsBot: true });
    expect(message.attachments).toEqual([
      {
        id: "size-3",
        uniqueId: "unique-3",
        name: "photo.jpg",
        kind: "image",
        mimeType: "image/jpeg",
        sizeBytes: 12800,
      },
    ]);
  });

  it("refuses a file over the cap from the size getFile declares, and an id Telegram never issued", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const { channel, inbox } = await polling(fake);
    await fake.injectMedia({ kind: "document", bytes: CSV, fileName: "big.csv", caption: "too big" });
    const message = await inbox.byText("too big");
    const location = { id: message.attachments[0]?.id ?? "", chatId: message.chatId, messageId: message.messageId };
    const tooLarge = await refusal(channel.fetchAttachment(location, { maxBytes: CSV.byteLength - 1 }));
    expect(tooLarge.reason).toBe("too-large");
    expect(tooLarge.message).toContain(`${CSV.byteLength} bytes`);
    expect(tooLarge.message).not.toContain(fake.token);
    const unknown = await refusal(channel.fetchAttachment({ ...location, id: "never-issued" }, { maxBytes: 1000 }));
    expect(unknown.reason).toBe("not-found");
    expect((await channel.fetchAttachment(location, { maxBytes: CSV.byteLength })).bytes).toEqual(CSV);
  });
});

describe("a Telegram album (media group)", () => {
  it("is one message with all its items and the caption, under its first item's ids", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const { channel, inbox } = await polling(fake);
    const items = await fake.injectAlbum({
      items: [
        { kind: "photo", bytes: JPEG },
        { kind: "photo", bytes: JPEG_2, caption: "our holiday" },
        { kind: "video", bytes: MP4 },
      ],
    });
    const message = await inbox.byText("our holiday");
    const [first] = items;
    expect(message.messageId).toBe(String(first?.item.message_id));
    expect(message.attachments.map((a) => a.kind)).toEqual(["image", "image", "video"]);
    expect(await bytesOf(channel, message, 0)).toEqual(JPEG);
    expect(await bytesOf(channel, message, 1)).toEqual(JPEG_2);
    expect(await bytesOf(channel, message, 2)).toEqual(MP4);
    // Nothing else reaches the gateway for the album: one message, not three.
    await fake.injectDm({ text: "after the album" });
    await inbox.byText("after the album");
    expect(inbox.messages.map((m) => m.text)).toEqual(["our holiday", "after the album"]);
    const botId = fake.bots[0]?.user.id;
    const updates = fake.callsTo("getUpdates");
    expect(message.eventId).toMatch(new RegExp(`^${botId}:\\d+$`));
    expect(updates.length).toBeGreaterThan(0);
  });

  it("gathers items that straddle two getUpdates answers, and keeps a chat's order around it", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const { inbox } = await polling(fake);
    await fake.injectDm({ text: "before" });
    await inbox.byText("before");
    await fake.injectMedia({ kind: "photo", bytes: JPEG, mediaGroupId: "g-1", caption: "first part" });
    // The long poll answers with the first item alone; the second comes a moment later.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fake.injectMedia({
      kind: "document",
      bytes: CSV,
      fileName: "list.csv",
      mimeType: "text/csv",
      mediaGroupId: "g-1",
    });
    await fake.injectDm({ text: "after" });
    await inbox.byText("after");
    expect(inbox.messages.map((m) => [m.text, m.attachments.length])).toEqual([
      ["before", 0],
      ["first part", 2],
      ["after", 0],
    ]);
  });

  it("is confirmed to Telegram only once stored: a poller that died storing it leaves it all to the next", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    let release: () => void = () => {};
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = await polling(fake, () => hanging);
    // Closed newest first: the hanging store lets go before the first poller is stopped.
    cleanup.track({ stop: async () => release() });
    await fake.injectAlbum({
      items: [
        { kind: "photo", bytes: JPEG, caption: "keep me whole" },
        { kind: "photo", bytes: JPEG_2 },
      ],
    });
    await first.inbox.byText("keep me whole");
    expect(first.inbox.messages[0]?.attachments).toHaveLength(2);

    // The first poller dies while storing it; the next one hears the whole album again, as one message.
    const next = await polling(fake);
    const again = await next.inbox.byText("keep me whole");
    expect(again.attachments.map((a) => a.id)).toEqual(first.inbox.messages[0]?.attachments.map((a) => a.id));
    expect(again.eventId).toBe(first.inbox.messages[0]?.eventId);
    expect(next.inbox.messages).toHaveLength(1);
  });

  it("a poller that stops after an album that straddled two answers confirms all of it: a restart hears it no more", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const { channel, inbox } = await polling(fake);
    await fake.injectMedia({ kind: "photo", bytes: JPEG, mediaGroupId: "g-2", caption: "straddling" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fake.injectMedia({ kind: "photo", bytes: JPEG_2, mediaGroupId: "g-2" });
    expect((await inbox.byText("straddling")).attachments).toHaveLength(2);
    await channel.stop();

    const { inbox: again } = await polling(fake);
    await fake.injectDm({ text: "next day" });
    await again.byText("next day");
    expect(again.messages.map((m) => m.text)).toEqual(["next day"]);
  });

  it("over a webhook: every item is answered once the album is stored, and all are refused when it cannot be", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const channel = cleanup.track(
      createTelegramChannel({
        accountId: "tg-hook",
        token: fake.token,
        apiRoot: fake.apiRoot,
        mode: "webhook",
        webhook: { secretToken: "s3cret-token" },
        albumWaitMs: 300,
        registerCommands: false,
      }),
    );
    const inbox = new InboundCollector();
    let databaseAway = true;
    await channel.start(async (message) => {
      if (databaseAway) throw new MessageNotStoredError(new SessionStoreError("io", "connection refused"));
      inbox.sink(message);
    });
    const refused = await fake.injectAlbum({
      items: [
        { kind: "photo", bytes: JPEG, caption: "first try" },
        { kind: "photo", bytes: JPEG_2 },
      ],
    });
    expect(refused.map((d) => [d.ok, d.status])).toEqual([
      [false, 503],
      [false, 503],
    ]);

    databaseAway = false;
    const stored = await fake.injectAlbum({
      items: [
        { kind: "photo", bytes: JPEG },
        { kind: "video", bytes: MP4, caption: "second try" },
      ],
    });
    expect(stored.map((d) => [d.ok, d.status])).toEqual([
      [true, 200],
      [true, 200],
    ]);
    const message = await inbox.byText("second try");
    expect(message).toMatchObject({ platformRedelivers: true, messageId: String(stored[0]?.item.message_id) });
    expect(message.attachments.map((a) => a.kind)).toEqual(["image", "video"]);
    expect(inbox.messages).toHaveLength(1);
  });
});
