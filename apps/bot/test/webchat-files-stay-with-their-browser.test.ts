import { AttachmentFetchError, type InboundMessage } from "@chorus/gateway";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpAnswer, httpRequest, upload } from "./support/http-request.js";
import {
  browserCookie,
  removeDataDir,
  startWebchatFixture,
  type WebchatFixture,
} from "./support/webchat-channel-fixture.js";
import { WebchatClient } from "./support/webchat-client.js";

// A browser attaches only its own uploads, and a file the bot sends to a DM is served only to that DM's browser;
// one sent to the group room, to every browser admitted.

let fixture: WebchatFixture | undefined;
const clients: WebchatClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  if (fixture === undefined) return;
  await fixture.stop();
  await removeDataDir(fixture);
  fixture = undefined;
});

async function start(): Promise<WebchatFixture> {
  fixture = await startWebchatFixture();
  return fixture;
}

async function browser(chat: WebchatFixture): Promise<{ client: WebchatClient; cookie: string }> {
  const cookie = browserCookie();
  const client = await WebchatClient.connect(chat.url, { cookie });
  clients.push(client);
  return { client, cookie };
}

async function uploaded(chat: WebchatFixture, bytes: Uint8Array, cookie: string, name = "a.bin"): Promise<string> {
  const answer = await upload(chat.url, bytes, { cookie, name });
  expect(answer.status).toBe(201);
  return (JSON.parse(answer.body.toString()) as { id: string }).id;
}

function download(chat: WebchatFixture, url: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return httpRequest(new URL(url, chat.url).toString(), { headers });
}

describe("WebChat files stay with their browser", () => {
  it("a browser cannot attach another browser's upload; its owner still can, once", async () => {
    const chat = await start();
    const alice = await browser(chat);
    const bob = await browser(chat);
    const bytes = Buffer.from("bob's private notes");
    const bobsUpload = await uploaded(chat, bytes, bob.cookie, "notes.txt");

    alice.client.send("dm", "look what I found", [bobsUpload]);
    await alice.client.until(() => alice.client.errors.length > 0);
    expect(alice.client.errors[0]).toContain("not one this browser uploaded");
    alice.client.send("group", "", [bobsUpload]);
    await alice.client.until(() => alice.client.errors.length > 1);
    expect(chat.inbound).toEqual([]); // nothing of it reached the gateway

    bob.client.send("dm", "my notes", [bobsUpload]);
    await chat.until(() => chat.inbound.length === 1);
    const message = chat.inbound[0] as InboundMessage;
    expect(message.attachments).toEqual([
      {
        id: bobsUpload,
        name: "notes.txt",
        sizeBytes: bytes.length,
        mimeType: "application/octet-stream",
        kind: "document",
      },
    ]);
    const fetched = await chat.channel.fetchAttachment(
      { id: bobsUpload, chatId: message.chatId, messageId: message.messageId },
      { maxBytes: 1024 },
    );
    expect(Buffer.from(fetched.bytes)).toEqual(bytes);

    // Sent once: not again (by its owner either), and not fetched for another chat or message.
    bob.client.send("dm", "again", [bobsUpload]);
    await bob.client.until(() => bob.client.errors.length > 0);
    expect(chat.inbound).toHaveLength(1);
    const elsewhere = chat.channel.fetchAttachment(
      { id: bobsUpload, chatId: alice.client.hello.publicId, messageId: message.messageId },
      { maxBytes: 1024 },
    );
    await expect(elsewhere).rejects.toMatchObject({ reason: "not-found" });
    await expect(elsewhere).rejects.toBeInstanceOf(AttachmentFetchError);
  });

  it("a file sent to a DM downloads only for that DM's browser", async () => {
    const chat = await start();
    const alice = await browser(chat);
    const bob = await browser(chat);
    const report = Buffer.from("%PDF-1.4 alice's report");
    await chat.channel.sendFile(
      { chatType: "dm", chatId: alice.client.hello.publicId },
      { bytes: report, name: "report.pdf", mimeType: "application/pdf", asPhoto: false, caption: "your report" },
    );
    await alice.client.until(() => alice.client.frames.some((frame) => frame.type === "message"));
    const frame = alice.client.frames.find((f) => f.type === "message");
    const file = frame?.type === "message" ? frame.message.files?.[0] : undefined;
    expect(file).toMatchObject({ name: "report.pdf", mimeType: "application/pdf", sizeBytes: report.length });
    expect(bob.client.frames.some((f) => f.type === "message")).toBe(false); // bob never sees it
    const url = file?.url ?? "";
    expect(url).toMatch(/^\/files\/[A-Za-z0-9_-]{32}$/);

    const mine = await download(chat, url, { cookie: alice.cookie });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual(report);
    expect(mine.headers["content-type"]).toBe("application/pdf");
    expect(mine.headers["x-content-type-options"]).toBe("nosniff");
    expect(mine.headers["content-disposition"]).toMatch(/^attachment; filename="report\.pdf"/);

    expect((await download(chat, url, { cookie: bob.cookie })).status).toBe(404);
    expect((await download(chat, url)).status).toBe(404); // no identity at all
    const fromElsewhere = await download(chat, url, { cookie: alice.cookie, origin: "https://evil.example" });
    expect(fromElsewhere.status).toBe(403);
  });

  it("a file sent to the group room downloads for every browser; an image is served inline", async () => {
    const chat = await start();
    const alice = await browser(chat);
    const bob = await browser(chat);
    const image = Buffer.from("\x89PNG\r\n\x1a\n not really", "latin1");
    const sent = await chat.channel.sendFile(
      { chatType: "group", chatId: "group" },
      { bytes: image, name: "chart.png", mimeType: "image/png", asPhoto: true },
    );
    const url = `/files/${sent.messageId.replace(/^file-/, "")}`;
    for (const { cookie } of [alice, bob]) {
      const answer = await download(chat, url, { cookie });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(image);
      expect(answer.headers["content-type"]).toBe("image/png");
      expect(answer.headers["content-disposition"]).toMatch(/^inline;/);
    }
    // An image type that can carry script (SVG) is never served inline.
    const svg = await chat.channel.sendFile(
      { chatType: "group", chatId: "group" },
      { bytes: Buffer.from("<svg/>"), name: "x.svg", mimeType: "image/svg+xml", asPhoto: true },
    );
    const svgAnswer = await download(chat, `/files/${svg.messageId.replace(/^file-/, "")}`, { cookie: alice.cookie });
    expect(svgAnswer.headers["content-disposition"]).toMatch(/^attachment;/);
    expect(svgAnswer.headers["content-security-policy"]).toContain("sandbox");
  });
});
