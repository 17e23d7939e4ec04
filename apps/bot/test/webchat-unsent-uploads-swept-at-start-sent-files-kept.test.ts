import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { InboundMessage } from "@chorus/gateway";
import { afterEach, describe, expect, it } from "vitest";
import { upload } from "./support/http-request.js";
import {
  browserCookie,
  removeDataDir,
  startWebchatFixture,
  type WebchatFixture,
} from "./support/webchat-channel-fixture.js";
import { WebchatClient } from "./support/webchat-client.js";

// What stays on disk: an upload never sent is removed at the next start once a day old; one a message carries, and
// the files the bot sent (with their messages in the page), stay. fetchAttachment keeps to the caller's cap.

const DAY = 24 * 60 * 60 * 1000;

const fixtures: WebchatFixture[] = [];
const clients: WebchatClient[] = [];
/** The data dir the test's channels share (a restart starts where the last one stopped). */
let dataDir: string | undefined;

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const fixture of fixtures.splice(0)) await fixture.stop();
  if (dataDir !== undefined) await removeDataDir({ dataDir });
  dataDir = undefined;
});

async function start(options: { now?: () => number } = {}): Promise<WebchatFixture> {
  const fixture = await startWebchatFixture({ ...(dataDir === undefined ? {} : { dataDir }), ...options });
  dataDir = fixture.dataDir;
  fixtures.push(fixture);
  return fixture;
}

async function connect(chat: WebchatFixture, cookie: string): Promise<WebchatClient> {
  const client = await WebchatClient.connect(chat.url, { cookie });
  clients.push(client);
  return client;
}

async function uploaded(chat: WebchatFixture, cookie: string, text: string): Promise<string> {
  const answer = await upload(chat.url, Buffer.from(text), { cookie, name: `${text}.txt`, type: "text/plain" });
  return (JSON.parse(answer.body.toString()) as { id: string }).id;
}

describe("WebChat files on disk", () => {
  it("removes unsent uploads a day old at start; keeps sent ones and the bot's files, shown again in the page", async () => {
    const cookie = browserCookie();
    const first = await start();
    const page = await connect(first, cookie);
    const unsent = await uploaded(first, cookie, "never-sent");
    const sentUpload = await uploaded(first, cookie, "sent");
    page.send("dm", "here", [sentUpload]);
    await first.until(() => first.inbound.length === 1);
    const botFile = await first.channel.sendFile(
      { chatType: "dm", chatId: page.hello.publicId },
      {
        bytes: Buffer.from("a,b\n1,2\n"),
        name: "table.csv",
        mimeType: "text/csv",
        asPhoto: false,
        caption: "the table",
      },
    );
    await page.close();
    await first.stop();
    fixtures.splice(0);

    // The next day: the unsent upload is gone; the rest is where it was.
    const next = await start({ now: () => Date.now() + DAY + 60_000 });
    const names = await next.files();
    expect(names).not.toContain(unsent);
    expect(names).not.toContain(`${unsent}.json`);
    expect(names).toContain(sentUpload);
    const fileId = botFile.messageId.replace(/^file-/, "");
    expect(names).toContain(fileId);

    const again = await connect(next, cookie);
    const shown = again.hello.history.find((message) => message.id === botFile.messageId);
    expect(shown).toMatchObject({
      role: "bot",
      text: "the table",
      files: [{ name: "table.csv", url: `/files/${fileId}` }],
    });
  });

  it("fetchAttachment: too-large over the cap without reading the file, not-found once it is gone", async () => {
    const chat = await start();
    const cookie = browserCookie();
    const page = await connect(chat, cookie);
    const id = await uploaded(chat, cookie, "x".repeat(100));
    page.send("group", "", [id]);
    await chat.until(() => chat.inbound.length === 1);
    const message = chat.inbound[0] as InboundMessage;
    expect(message.chatId).toBe("group");
    const location = { id, chatId: message.chatId, messageId: message.messageId };
    await expect(chat.channel.fetchAttachment(location, { maxBytes: 99 })).rejects.toMatchObject({
      reason: "too-large",
    });
    const exact = await chat.channel.fetchAttachment(location, { maxBytes: 100 });
    expect(Buffer.from(exact.bytes).toString()).toBe("x".repeat(100));
    expect(exact.mimeType).toBe("text/plain");
    await rm(join(chat.filesDir, id));
    await expect(chat.channel.fetchAttachment(location, { maxBytes: 1024 })).rejects.toMatchObject({
      reason: "not-found",
    });
  });
});
