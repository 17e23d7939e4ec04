import { DiscordAPIError, REST, type TextChannel } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { type DiscordAttachment, type FakeDiscord, startFakeDiscord } from "../src/platforms/index.js";
import { connectDiscordClient } from "./discord-test-client.js";

// Issue #32, files out: the fake Discord takes a message with files as discord.js sends it — multipart/form-data with
// `payload_json` and `files[n]` parts — keeps each as an attachment on its CDN, honours `nonce` + `enforce_nonce` for
// it too, and refuses a file over the upload limit with 413 / 40005.

let fake: FakeDiscord | undefined;
const clients: { destroy(): Promise<void> }[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.destroy();
  await fake?.close();
  fake = undefined;
});

const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

function restFor(f: FakeDiscord): REST {
  return new REST({ api: f.restApi, version: "10", retries: 0 }).setToken(f.token);
}

describe("files a bot attaches on the fake Discord", () => {
  it("arrive from discord.js channel.send as attachments with their name, type, size and a CDN link to the bytes", async () => {
    fake = await startFakeDiscord();
    const client = await connectDiscordClient(fake);
    clients.push(client);
    const channel = (await client.channels.fetch(fake.guild.general.id)) as TextChannel;
    const sent = await channel.send({
      content: "the report",
      files: [{ attachment: Buffer.from(PDF), name: "report.pdf" }],
    });

    const call = fake.callsTo("createMessage").at(-1);
    expect(call?.body).toMatchObject({ content: "the report" });
    const [attachment] = (fake.conversation(fake.guild.general.id).at(-1)?.attachments ?? []) as DiscordAttachment[];
    expect(attachment).toMatchObject({ filename: "report.pdf", size: PDF.byteLength, content_type: "application/pdf" });
    expect(sent.attachments.first()?.name).toBe("report.pdf");
    const [record] = fake.sentFiles();
    expect(record).toMatchObject({ channelId: fake.guild.general.id, messageId: sent.id, filename: "report.pdf" });
    expect(record?.bytes).toEqual(PDF);
    const served = await fetch(attachment?.url ?? "");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF);
  });

  it("keeps the content type a raw REST upload gives, and sends a file with no text", async () => {
    fake = await startFakeDiscord();
    const dm = fake.dmChannel().id;
    const message = (await restFor(fake).post(`/channels/${dm}/messages`, {
      body: { attachments: [{ id: 0, filename: "chart.png" }] },
      files: [{ name: "upload.bin", data: PNG, contentType: "image/png" }],
    })) as { id: string; content: string; attachments: DiscordAttachment[] };
    expect(message.content).toBe("");
    expect(message.attachments).toEqual([
      expect.objectContaining({ filename: "chart.png", content_type: "image/png" }),
    ]);
    expect(fake.sentFiles()[0]?.bytes).toEqual(PNG);
  });

  it("returns the first message for a repeated nonce with enforce_nonce, keeping no second copy", async () => {
    fake = await startFakeDiscord();
    const dm = fake.dmChannel().id;
    const rest = restFor(fake);
    const upload = () =>
      rest.post(`/channels/${dm}/messages`, {
        body: { content: "here", nonce: "outbox:7:0", enforce_nonce: true },
        files: [{ name: "report.pdf", data: PDF, contentType: "application/pdf" }],
      }) as Promise<{ id: string }>;
    const first = await upload();
    const repeat = await upload();
    expect(repeat.id).toBe(first.id);
    expect(fake.conversation(dm)).toHaveLength(1);
    expect(fake.sentFiles()).toHaveLength(1);
  });

  it("refuses a file over the upload limit with 413, code 40005, and creates nothing", async () => {
    fake = await startFakeDiscord({ maxUploadBytes: 1024 });
    const dm = fake.dmChannel().id;
    const refused = await restFor(fake)
      .post(`/channels/${dm}/messages`, {
        body: { content: "too big" },
        files: [{ name: "big.bin", data: new Uint8Array(1025), contentType: "application/octet-stream" }],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DiscordAPIError);
    expect((refused as DiscordAPIError).status).toBe(413);
    expect((refused as DiscordAPIError).code).toBe(40005);
    expect(fake.conversation(dm)).toEqual([]);
    expect(fake.sentFiles()).toEqual([]);
  });
});
