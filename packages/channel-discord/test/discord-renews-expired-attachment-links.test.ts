import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AttachmentFetchError, type InboundMessage } from "@chorus/gateway";
import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeDiscord, startFakeDiscord, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordChannel, type DiscordChannel } from "../src/index.js";

// Issue #32 on Discord: attachments reach the gateway with their kind and CDN link; the channel downloads them from
// Discord's CDN only, and renews a link that expired (Discord's links are signed for a day) before downloading again.

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const OGG = new TextEncoder().encode("OggS\0fake audio");
const MP4 = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32]);
const PDF = new TextEncoder().encode("%PDF-1.7\n%fake\n");

async function started(f: FakeDiscord): Promise<{ channel: DiscordChannel; inbox: InboundCollector }> {
  const channel = cleanup.track(
    createDiscordChannel({ accountId: "dc", token: f.token, restApi: f.restApi, registerCommands: false }),
  );
  const inbox = new InboundCollector();
  await channel.start(inbox.sink);
  return { channel, inbox };
}

function locationOf(message: InboundMessage, index = 0) {
  const attachment = message.attachments[index];
  if (attachment === undefined) throw new Error(`no attachment ${index}`);
  return { id: attachment.id, chatId: message.chatId, messageId: message.messageId, url: attachment.url ?? "" };
}

async function refusal(promise: Promise<unknown>): Promise<AttachmentFetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AttachmentFetchError);
  return error as AttachmentFetchError;
}

describe("Discord hands over attachments", () => {
  it("each with its kind and CDN link, downloaded byte for byte without renewing a live link", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const { channel, inbox } = await started(fake);
    const files = [
      { bytes: PNG, filename: "chart.png", contentType: "image/png" },
      { bytes: OGG, filename: "talk.ogg", contentType: "audio/ogg" },
      { bytes: MP4, filename: "clip.mp4", contentType: "video/mp4" },
      { bytes: PDF, filename: "report.pdf", contentType: "application/pdf" },
    ];
    await fake.injectDm({ content: "see attached", attachments: files });
    const message = await inbox.byText("see attached");
    expect(message.attachments.map((a) => [a.name, a.kind, a.mimeType, a.sizeBytes])).toEqual([
      ["chart.png", "image", "image/png", PNG.byteLength],
      ["talk.ogg", "audio", "audio/ogg", OGG.byteLength],
      ["clip.mp4", "video", "video/mp4", MP4.byteLength],
      ["report.pdf", "document", "application/pdf", PDF.byteLength],
    ]);
    for (const [index, file] of files.entries()) {
      const fetched = await channel.fetchAttachment(locationOf(message, index), { maxBytes: 1024 });
      expect(fetched).toEqual({ bytes: file.bytes, mimeType: file.contentType });
    }
    expect(fake.callsTo("refreshAttachmentUrls")).toHaveLength(0);
  });

  it("renews a link past its signed expiry and downloads the file from the new one", async () => {
    const fake = cleanup.track(await startFakeDiscord({ attachmentUrlTtlMs: 1_000 }));
    const { channel, inbox } = await started(fake);
    await fake.injectDm({
      content: "old report",
      attachments: [{ bytes: PDF, filename: "report.pdf", contentType: "application/pdf" }],
    });
    const message = await inbox.byText("old report");
    const stale = locationOf(message).url;
    // `ex` counts whole seconds: past it, the CDN answers 404.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await fetch(stale)).status).toBe(404);

    const fetched = await channel.fetchAttachment(locationOf(message), { maxBytes: 1024 });
    expect(fetched.bytes).toEqual(PDF);
    expect(fetched.refreshedUrl).toBeDefined();
    expect(fetched.refreshedUrl).not.toBe(stale);
    expect(fake.callsTo("refreshAttachmentUrls").map((c) => c.body)).toEqual([{ attachment_urls: [stale] }]);
  });

  it("renews a link the CDN no longer serves (404) though its expiry has not come", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const { channel, inbox } = await started(fake);
    await fake.injectDm({
      content: "chart",
      attachments: [{ bytes: PNG, filename: "c.png", contentType: "image/png" }],
    });
    const message = await inbox.byText("chart");
    // A link whose signature the CDN no longer accepts (as after Discord rotated its keys).
    const revoked = locationOf(message).url.replace(/hm=[0-9a-f]{6}/, "hm=000000");
    const fetched = await channel.fetchAttachment({ ...locationOf(message), url: revoked }, { maxBytes: 1024 });
    expect(fetched.bytes).toEqual(PNG);
    expect(fetched.refreshedUrl).toMatch(/\/attachments\/.+c\.png\?ex=/);
    expect(fake.callsTo("refreshAttachmentUrls")).toHaveLength(1);
  });

  it("gives `expired` for a link that cannot be renewed", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const { channel, inbox } = await started(fake);
    await fake.injectDm({
      content: "gone",
      attachments: [{ bytes: PNG, filename: "g.png", contentType: "image/png" }],
    });
    const message = await inbox.byText("gone");
    // A file the CDN never had (deleted with its message): Discord hands back the same link, which still fails.
    const url = new URL(locationOf(message).url);
    url.pathname = url.pathname.replace(/\/g\.png$/, "/deleted.png");
    url.searchParams.set("ex", "1");
    const error = await refusal(
      channel.fetchAttachment({ ...locationOf(message), url: url.toString() }, { maxBytes: 1024 }),
    );
    expect(error.reason).toBe("expired");
    expect(fake.callsTo("refreshAttachmentUrls")).toHaveLength(1);

    // A channel that is not running cannot ask for a new link either.
    const stopped = createDiscordChannel({ accountId: "dc2", token: fake.token, restApi: fake.restApi });
    const notRunning = await refusal(
      stopped.fetchAttachment({ ...locationOf(message), url: url.toString() }, { maxBytes: 1024 }),
    );
    expect(notRunning.reason).toBe("expired");
  });

  it("refuses a file over the cap, and a link on another host without requesting it", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const { channel, inbox } = await started(fake);
    await fake.injectDm({
      content: "pdf",
      attachments: [{ bytes: PDF, filename: "r.pdf", contentType: "application/pdf" }],
    });
    const message = await inbox.byText("pdf");
    const tooLarge = await refusal(channel.fetchAttachment(locationOf(message), { maxBytes: PDF.byteLength - 1 }));
    expect(tooLarge.reason).toBe("too-large");

    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.url ?? "/");
      res.end("not Discord");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanup.track({ stop: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const elsewhere = `http://127.0.0.1:${(server.address() as AddressInfo).port}${new URL(locationOf(message).url).pathname}`;
    for (const url of [elsewhere, "https://cdn.discordapp.com.evil.example/attachments/1/2/r.pdf", "data:,hello"]) {
      const error = await refusal(channel.fetchAttachment({ ...locationOf(message), url }, { maxBytes: 1024 }));
      expect(error.reason).toBe("host-not-allowed");
    }
    expect(seen).toEqual([]);
    expect(fake.callsTo("refreshAttachmentUrls")).toHaveLength(0);
  });
});
