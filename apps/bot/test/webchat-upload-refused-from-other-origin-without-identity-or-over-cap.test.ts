import { stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { httpRequest, upload } from "./support/http-request.js";
import {
  browserCookie,
  removeDataDir,
  startWebchatFixture,
  type WebchatFixture,
} from "./support/webchat-channel-fixture.js";

// Uploads to WebChat (POST /upload) are let in exactly like its WebSocket: same origin, the access proof when a token
// is set, and — for a file to belong to someone — the browser's identity cookie. The cap holds while reading.

const CAP = 64 * 1024;

let fixture: WebchatFixture | undefined;

afterEach(async () => {
  if (fixture === undefined) return;
  await fixture.stop();
  await removeDataDir(fixture);
  fixture = undefined;
});

async function start(options: { accessToken?: string } = {}): Promise<WebchatFixture> {
  fixture = await startWebchatFixture({ maxAttachmentBytes: CAP, ...options });
  return fixture;
}

describe("WebChat uploads", () => {
  it("takes a file from its own page's browser: 201 with an id, kept 0600 in a 0700 directory", async () => {
    const chat = await start();
    const answer = await upload(chat.url, Buffer.from("hello file"), {
      name: "notes.txt",
      type: "text/plain",
      cookie: browserCookie(),
    });
    expect(answer.status).toBe(201);
    const body = JSON.parse(answer.body.toString()) as { id: string; name: string; sizeBytes: number };
    expect(body).toMatchObject({ name: "notes.txt", sizeBytes: 10, mimeType: "text/plain" });
    expect(body.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await chat.files()).toEqual([body.id, `${body.id}.json`]);
    expect((await stat(chat.filesDir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(chat.filesDir, body.id))).mode & 0o777).toBe(0o600);
    expect((await stat(join(chat.filesDir, `${body.id}.json`))).mode & 0o777).toBe(0o600);
  });

  it("refuses an upload sent by another web site (403) and keeps nothing", async () => {
    const chat = await start();
    const answer = await upload(chat.url, Buffer.from("csrf"), {
      cookie: browserCookie(),
      headers: { origin: "https://evil.example" },
    });
    expect(answer.status).toBe(403);
    expect(await chat.files()).toEqual([]);
  });

  it("refuses an upload without the browser's identity cookie (403), also with a malformed one", async () => {
    const chat = await start();
    expect((await upload(chat.url, Buffer.from("who am i"))).status).toBe(403);
    expect((await upload(chat.url, Buffer.from("forged"), { cookie: "chorus_webchat=not-a-credential" })).status).toBe(
      403,
    );
    expect(await chat.files()).toEqual([]);
  });

  it("refuses an upload without the access proof when the account has a token (403)", async () => {
    const chat = await start({ accessToken: "tok-upload-3f9c2a7e5b1d-webchat" });
    const answer = await upload(chat.url, Buffer.from("no proof"), { cookie: browserCookie() });
    expect(answer.status).toBe(403);
    expect(await chat.files()).toEqual([]);
  });

  it("refuses an upload over the cap (413) from its Content-Length alone, and keeps nothing", async () => {
    const chat = await start();
    const answer = await httpRequest(new URL("upload?name=big.bin", chat.url).toString(), {
      method: "POST",
      headers: {
        origin: new URL(chat.url).origin,
        cookie: browserCookie(),
        "content-length": String(CAP + 1),
      },
      chunks: [], // the body is never sent: the answer comes first
    });
    expect(answer.status).toBe(413);
    expect(answer.body.toString()).toContain("larger than this WebChat takes");
    expect(await chat.files()).toEqual([]);
  });

  it("refuses a chunked upload (no Content-Length) with 413 once it passes the cap, and keeps nothing", async () => {
    const chat = await start();
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(16 * 1024, 7)); // 640 KB offered, 10 times the cap
    const answer = await httpRequest(new URL("upload?name=stream.bin", chat.url).toString(), {
      method: "POST",
      headers: { origin: new URL(chat.url).origin, cookie: browserCookie() },
      chunks,
    });
    expect(answer.status).toBe(413);
    expect(answer.chunksSent).toBeLessThan(chunks.length); // answered while the body was still coming
    expect(await chat.files()).toEqual([]);
  });

  it("answers 405 to anything but POST on /upload", async () => {
    const chat = await start();
    const answer = await httpRequest(new URL("upload", chat.url).toString(), {
      headers: { cookie: browserCookie() },
    });
    expect(answer.status).toBe(405);
  });
});
