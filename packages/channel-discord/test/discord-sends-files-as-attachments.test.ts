import { ChannelError, type OutboundFile } from "@chorus/channel";
import { InboundCollector } from "@chorus/gateway-testing";
import { type DiscordAttachment, type FakeDiscord, startFakeDiscord, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordChannel, DISCORD_CAPABILITIES, type DiscordChannel } from "../src/index.js";

// Issue #32, files out on Discord: sendFile posts the file as an attachment (multipart: payload_json and files[0],
// through discord.js's REST client), the caption as the message's text, with `nonce` + `enforce_nonce` from the
// idempotency key as text sends have; a file over 10 MiB is refused before any request.

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

async function startChannel(f: FakeDiscord): Promise<DiscordChannel> {
  const channel = cleanup.track(createDiscordChannel({ accountId: "main", token: f.token, restApi: f.restApi }));
  await channel.start(new InboundCollector().sink);
  return channel;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2]);
const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n");
const pdf: OutboundFile = { bytes: PDF, name: "report.pdf", mimeType: "application/pdf", asPhoto: false };

function attachmentsOf(f: FakeDiscord, channelId: string, messageId: string): DiscordAttachment[] {
  return (f.conversation(channelId).find((m) => m.id === messageId)?.attachments ?? []) as DiscordAttachment[];
}

describe("Discord channel: sending files", () => {
  it("says how large a file it uploads", () => {
    expect(DISCORD_CAPABILITIES.maxUploadBytes).toBe(10 * 1024 * 1024);
  });

  it("posts an image as an attachment with the caption as its text, and the bytes arrive as they were", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    const dm = fake.dmChannel().id;
    const sent = await c.sendFile(
      { chatType: "dm", chatId: dm },
      { bytes: PNG, name: "chart.png", mimeType: "image/png", asPhoto: true, caption: "the *chart*" },
    );

    const message = fake.conversation(dm).find((m) => m.id === sent.messageId);
    // Plain text: Markdown's characters are escaped, so Discord shows the caption as written.
    expect(message?.content).toBe("the \\*chart\\*");
    expect(attachmentsOf(fake, dm, sent.messageId)).toEqual([
      expect.objectContaining({ filename: "chart.png", content_type: "image/png", size: PNG.byteLength }),
    ]);
    expect(fake.sentFiles()[0]?.bytes).toEqual(PNG);
  });

  it("posts a PDF with its name and type, in a thread and as a reply", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    const thread = fake.guild.thread.id;
    const asked = await fake.injectThreadMessage({ content: "the report please" });
    const sent = await c.sendFile(
      { chatType: "group", chatId: fake.guild.general.id, threadId: thread, replyToMessageId: asked.item.id },
      { ...pdf, caption: "here it is" },
    );

    expect(sent).toMatchObject({ chatId: fake.guild.general.id, threadId: thread });
    const message = fake.conversation(thread).find((m) => m.id === sent.messageId);
    expect(message).toMatchObject({ content: "here it is", message_reference: { message_id: asked.item.id } });
    const [attachment] = attachmentsOf(fake, thread, sent.messageId);
    expect(attachment).toMatchObject({ filename: "report.pdf", content_type: "application/pdf" });
    const served = await fetch(attachment?.url ?? "");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF);
  });

  it("uploads a file once for one idempotency key: a repeat gets the first message and no second copy", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    const target = { chatType: "dm" as const, chatId: fake.dmChannel().id };
    const first = await c.sendFile(target, { ...pdf, idempotencyKey: "outbox:9:file" });
    const again = await c.sendFile(target, { ...pdf, idempotencyKey: "outbox:9:file" });

    expect(again.messageId).toBe(first.messageId);
    expect(fake.callsTo("createMessage").at(-1)?.body).toMatchObject({ nonce: "outbox:9:file", enforce_nonce: true });
    expect(fake.conversation(target.chatId)).toHaveLength(1);
    expect(fake.sentFiles()).toHaveLength(1);
  });

  it("refuses a file over 10 MiB with too-long before any request", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = await startChannel(fake);
    const huge: OutboundFile = { ...pdf, bytes: new Uint8Array(10 * 1024 * 1024 + 1) };
    const refused = await c.sendFile({ chatType: "dm", chatId: fake.dmChannel().id }, huge).catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(ChannelError);
    expect(refused).toMatchObject({ kind: "too-long" });
    expect(fake.callsTo("createMessage")).toEqual([]);
  });

  it("maps Discord's refusals: 413 / 40005 for a file too large, an unknown channel", async () => {
    const fake = cleanup.track(await startFakeDiscord({ maxUploadBytes: 16 }));
    const c = await startChannel(fake);
    await expect(c.sendFile({ chatType: "dm", chatId: fake.dmChannel().id }, pdf)).rejects.toMatchObject({
      kind: "too-long",
    });
    await expect(
      c.sendFile({ chatType: "group", chatId: "123456789012345678" }, { ...pdf, bytes: PDF.subarray(0, 8) }),
    ).rejects.toMatchObject({ kind: "not-found" });
    expect(fake.sentFiles()).toEqual([]);
  });
});
