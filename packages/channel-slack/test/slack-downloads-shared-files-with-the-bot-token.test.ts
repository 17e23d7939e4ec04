import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AttachmentFetchError, type InboundMessage } from "@chorus/gateway";
import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeSlack, startFakeSlack, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackChannel, type SlackChannel } from "../src/index.js";

// Issue #32 on Slack: the files people share reach the gateway with their kind, and the channel downloads them from
// `url_private` with the bot token — from Slack's own file host only, never more than the cap.

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const WEBM = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4, 5, 6]);
const MP3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 1]);
const MP4 = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32]);
const PDF = new TextEncoder().encode("%PDF-1.7\n%fake\n");

async function socketChannel(f: FakeSlack): Promise<{ channel: SlackChannel; inbox: InboundCollector }> {
  const channel = cleanup.track(
    createSlackChannel({
      accountId: "sl",
      mode: "socket",
      botToken: f.botToken,
      appToken: f.appToken,
      slackApiUrl: f.apiUrl,
    }),
  );
  const inbox = new InboundCollector();
  await channel.start(inbox.sink);
  await f.waitForSocket(f.botToken);
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

/** A local HTTP server answering every request with `answer`, recording each request's path and authorization. */
async function localHost(answer: (res: import("node:http").ServerResponse) => void) {
  const seen: { path: string; authorization: string | undefined }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? "/", authorization: req.headers.authorization });
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.track({
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("Slack hands over the files people share", () => {
  it("each with its kind, downloaded from url_private with the bot token, byte for byte", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket" }));
    const { channel, inbox } = await socketChannel(fake);
    const shared = [
      { bytes: PNG, name: "chart.png", mimetype: "image/png" },
      { bytes: WEBM, name: "audio_message.webm", mimetype: "audio/webm" },
      { bytes: MP3, name: "song.mp3", mimetype: "audio/mpeg" },
      { bytes: MP4, name: "demo.mp4", mimetype: "video/mp4" },
      { bytes: PDF, name: "notes.pdf", mimetype: "application/pdf" },
    ];
    await fake.injectDm({ text: "have a look", files: shared });
    const message = await inbox.byText("have a look");
    expect(message.attachments.map((a) => [a.name, a.kind, a.mimeType, a.sizeBytes])).toEqual([
      ["chart.png", "image", "image/png", PNG.byteLength],
      ["audio_message.webm", "voice", "audio/webm", WEBM.byteLength],
      ["song.mp3", "audio", "audio/mpeg", MP3.byteLength],
      ["demo.mp4", "video", "video/mp4", MP4.byteLength],
      ["notes.pdf", "document", "application/pdf", PDF.byteLength],
    ]);
    for (const [index, file] of shared.entries()) {
      const fetched = await channel.fetchAttachment(locationOf(message, index), { maxBytes: 1024 });
      expect(fetched.bytes).toEqual(file.bytes);
      expect(fetched.mimeType).toBe(file.mimetype);
    }
  });

  it("refuses a file over the cap from its declared length", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket" }));
    const { channel, inbox } = await socketChannel(fake);
    await fake.injectDm({ text: "big one", files: [{ bytes: PDF, name: "big.pdf", mimetype: "application/pdf" }] });
    const message = await inbox.byText("big one");
    const error = await refusal(channel.fetchAttachment(locationOf(message), { maxBytes: PDF.byteLength - 1 }));
    expect(error.reason).toBe("too-large");
  });

  it("refuses a URL on another host without requesting it, so the token goes nowhere else", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket" }));
    const { channel, inbox } = await socketChannel(fake);
    await fake.injectDm({ text: "a file", files: [{ bytes: PNG, name: "a.png", mimetype: "image/png" }] });
    const message = await inbox.byText("a file");
    const elsewhere = await localHost((res) => res.end("thanks for the token"));
    const path = new URL(locationOf(message).url).pathname;
    for (const url of [
      `${elsewhere.origin}${path}`,
      "https://files.slack.com.evil.example/x.png",
      "file:///etc/hosts",
    ]) {
      const error = await refusal(channel.fetchAttachment({ ...locationOf(message), url }, { maxBytes: 1024 }));
      expect(error.reason).toBe("host-not-allowed");
    }
    expect(elsewhere.seen).toEqual([]);
    const none = await refusal(channel.fetchAttachment({ ...locationOf(message), url: "" }, { maxBytes: 1024 }));
    expect(none.reason).toBe("unsupported");
  });

  it("tells a token Slack does not accept (its sign-in page comes back) as forbidden, never as the file", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket" }));
    const { inbox } = await socketChannel(fake);
    await fake.injectDm({ text: "private", files: [{ bytes: PDF, name: "secret.pdf", mimetype: "application/pdf" }] });
    const message = await inbox.byText("private");
    // An app of another workspace: its token is not accepted for the file (fetchAttachment needs no running app).
    const stranger = createSlackChannel({
      accountId: "other",
      mode: "socket",
      botToken: "xoxb-not-installed",
      appToken: "xapp-not-installed",
      slackApiUrl: fake.apiUrl,
    });
    const error = await refusal(stranger.fetchAttachment(locationOf(message), { maxBytes: 1024 }));
    expect(error.reason).toBe("forbidden");
  });

  it("refuses a redirect to another host (Slack's sign-in page) as forbidden, without following it", async () => {
    const signIn = await localHost((res) => res.end("<html>Sign in</html>"));
    const files = await localHost((res) => {
      res.writeHead(302, { location: `${signIn.origin}/?redir=%2Ffiles-pri%2FT1-F1%2Fx.pdf` });
      res.end();
    });
    const channel = createSlackChannel({
      accountId: "sl",
      mode: "socket",
      botToken: "xoxb-token",
      appToken: "xapp-token",
      slackApiUrl: `${files.origin}/api/`,
    });
    const location = { id: "F1", chatId: "D1", messageId: "1.2", url: `${files.origin}/files-pri/T1-F1/x.pdf` };
    const error = await refusal(channel.fetchAttachment(location, { maxBytes: 1024 }));
    expect(error.reason).toBe("forbidden");
    expect(files.seen).toEqual([{ path: "/files-pri/T1-F1/x.pdf", authorization: "Bearer xoxb-token" }]);
    expect(signIn.seen).toEqual([]);
  });
});
