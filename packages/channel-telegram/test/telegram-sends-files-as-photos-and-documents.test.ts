import { ChannelError, type OutboundFile } from "@chorus/channel";
import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeTelegram, startFakeTelegram, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel, TELEGRAM_CAPABILITIES, type TelegramChannel } from "../src/index.js";

// Issue #32, files out on Telegram: sendFile uploads through grammy (an InputFile of the bytes, multipart) as a photo
// or a document, with its caption, in the thread and as a reply; a file over 50 MB is refused before any request.

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

/** The start of a PNG of `width` × `height` pixels (signature and IHDR) and some bytes after it. */
function png(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write("IHDR", 12, "latin1");
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  for (let i = 33; i < bytes.length; i++) bytes[i] = i;
  return new Uint8Array(bytes);
}

const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n");
const photo = (bytes = png(800, 600)): OutboundFile => ({
  bytes,
  name: "chart.png",
  mimeType: "image/png",
  asPhoto: true,
  caption: "the chart",
});
const pdf: OutboundFile = { bytes: PDF, name: "report.pdf", mimeType: "application/pdf", asPhoto: false };

describe("Telegram channel: sending files", () => {
  it("says how large a file it uploads", () => {
    expect(TELEGRAM_CAPABILITIES.maxUploadBytes).toBe(50 * 1024 * 1024);
  });

  it("sends a photo as a photo, with its caption, and the bytes arrive as they were", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    const sent = await c.sendFile({ chatType: "dm", chatId: String(fake.user.id) }, photo());

    const landed = fake.conversation(fake.user.id).at(-1);
    expect(sent).toMatchObject({ chatId: String(fake.user.id), messageId: String(landed?.message_id) });
    expect(landed?.caption).toBe("the chart");
    expect(landed?.photo?.at(-1)).toMatchObject({ width: 800, height: 600 });
    expect(landed?.document).toBeUndefined();
    const [record] = fake.sentFiles();
    expect(record?.method).toBe("sendPhoto");
    expect(record?.bytes).toEqual(photo().bytes);
    // Plain text: no parse_mode, so Telegram shows the caption as written.
    expect(fake.callsTo("sendPhoto")[0]?.body).not.toHaveProperty("parse_mode");
  });

  it("sends a PDF as a document with its name and type, in the topic and as a reply", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    const asked = await fake.injectTopicMessage({ text: "the report please", threadId: 42 });
    const sent = await c.sendFile(
      {
        chatType: "group",
        chatId: String(fake.forum.id),
        threadId: "42",
        replyToMessageId: String(asked.item.message_id),
      },
      { ...pdf, caption: "here it is" },
    );

    expect(sent).toMatchObject({ chatId: String(fake.forum.id), threadId: "42" });
    const landed = fake.conversation(fake.forum.id).at(-1);
    expect(landed?.document).toMatchObject({
      file_name: "report.pdf",
      mime_type: "application/pdf",
      file_size: PDF.byteLength,
    });
    expect(landed).toMatchObject({ caption: "here it is", message_thread_id: 42 });
    expect(landed?.reply_to_message?.message_id).toBe(asked.item.message_id);
    expect(fake.sentFiles()[0]?.bytes).toEqual(PDF);
    expect(fake.callsTo("sendPhoto")).toEqual([]);
  });

  it("sends an image Telegram does not show as a photo as a document: a GIF, or one it refuses as a photo", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    const dm = { chatType: "dm" as const, chatId: String(fake.user.id) };
    await c.sendFile(dm, { ...photo(), name: "loop.gif", mimeType: "image/gif" });
    expect(fake.callsTo("sendPhoto")).toEqual([]);
    // Said to be a PNG, but no image Telegram can read: sendPhoto is refused, and the file goes as a document.
    const refusedAsPhoto = await c.sendFile(dm, photo(new TextEncoder().encode("not really a png")));

    expect(fake.callsTo("sendPhoto")).toHaveLength(1);
    expect(fake.sentFiles().map((f) => [f.method, f.fileName])).toEqual([
      ["sendDocument", "loop.gif"],
      ["sendDocument", "chart.png"],
    ]);
    expect(refusedAsPhoto.messageId).toBe(String(fake.conversation(fake.user.id).at(-1)?.message_id));
  });

  it("refuses a file over 50 MB with too-long before any request", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const c = await startChannel(fake);
    const callsBefore = fake.calls.length;
    const huge: OutboundFile = { ...pdf, bytes: new Uint8Array(50 * 1024 * 1024 + 1) };
    const refused = await c.sendFile({ chatType: "dm", chatId: String(fake.user.id) }, huge).catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(ChannelError);
    expect(refused).toMatchObject({ kind: "too-long" });
    expect(fake.calls.slice(callsBefore).filter((call) => call.method.startsWith("send"))).toEqual([]);
    expect(fake.sentFiles()).toEqual([]);
  });

  it("maps Telegram's refusals: 413 for an upload too large, an unknown chat, a server error", async () => {
    const fake = cleanup.track(await startFakeTelegram({ uploadLimits: { fileBytes: 16 } }));
    const c = await startChannel(fake);
    const dm = { chatType: "dm" as const, chatId: String(fake.user.id) };
    await expect(c.sendFile(dm, pdf)).rejects.toMatchObject({ kind: "too-long" });
    const small: OutboundFile = { ...pdf, bytes: PDF.subarray(0, 8) };
    await expect(c.sendFile({ chatType: "dm", chatId: "999" }, small)).rejects.toMatchObject({ kind: "not-found" });
    fake.failNext({ method: "sendDocument", status: 502 });
    await expect(c.sendFile(dm, small)).rejects.toMatchObject({ kind: "network" });
    expect(fake.sentFiles()).toEqual([]);
  });
});
