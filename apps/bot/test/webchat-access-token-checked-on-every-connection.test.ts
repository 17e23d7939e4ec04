import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { buildBot } from "./support/build-bot.js";
import {
  cookieHeaderOf,
  httpRequest,
  startWebchatBotProcess,
  type WebchatBotProcess,
} from "./support/webchat-bot-process.js";
import { WebchatClient } from "./support/webchat-client.js";

// WebChat bound to 127.0.0.2 (standing for a public address) with an access token: the page asks for the token
// once, the server keeps only a proof of it in an HttpOnly cookie, and every page load and WebSocket checks it,
// as well as the Host.

const TOKEN = "tok-7f3a9c1e5b2d4f60-webchat";

let dirs: string[] = [];
const bots: WebchatBotProcess[] = [];

beforeAll(async () => {
  await buildBot();
}, 300_000);

afterAll(async () => {
  await Promise.all(bots.map(({ bot }) => bot.kill()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

async function start(settings: Parameters<typeof startWebchatBotProcess>[1]): Promise<WebchatBotProcess> {
  const dir = await mkdtemp(join(tmpdir(), "chorus-token-"));
  dirs.push(dir);
  const running = await startWebchatBotProcess(dir, settings);
  bots.push(running);
  return running;
}

/** The status of a WebSocket upgrade with these headers (101 when it opened). */
async function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  const socket = new WebSocket(new URL("ws", url).toString().replace(/^http/, "ws"), {
    headers,
    localAddress: "127.0.0.2",
  });
  const status = await new Promise<number>((resolve) => {
    socket.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
    socket.once("open", () => resolve(101));
    socket.once("error", () => resolve(-1));
  });
  socket.terminate();
  return status;
}

async function login(url: string, token: string, cookie = ""): Promise<{ status: number; setCookie: string }> {
  const response = await httpRequest(new URL("login", url).toString(), {
    method: "POST",
    localAddress: "127.0.0.2",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: new URL(url).origin,
      ...(cookie === "" ? {} : { cookie }),
    },
    body: new URLSearchParams({ token }).toString(),
  });
  return { status: response.status, setCookie: cookieHeaderOf(response.headers["set-cookie"]) };
}

describe("WebChat with an access token", () => {
  it("refuses the page and the WebSocket without the proof cookie or with a wrong token, and opens with the right one", async () => {
    const { url, bot } = await start({ host: "127.0.0.2", accessToken: TOKEN });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/$/);
    const origin = new URL(url).origin;

    // No proof: the page sends the browser to the token form, the script and the WebSocket are refused.
    const page = await httpRequest(url, { localAddress: "127.0.0.2" });
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe("/login");
    const form = await httpRequest(new URL("login", url).toString(), { localAddress: "127.0.0.2" });
    expect(form.status).toBe(200);
    expect(form.body).toContain('<form class="login" method="post" action="/login">');
    expect(form.body).not.toContain("<script");
    expect((await httpRequest(new URL("app.js", url).toString(), { localAddress: "127.0.0.2" })).status).toBe(403);
    expect(await upgradeStatus(url, { origin })).toBe(403);

    // A wrong token: refused, no proof given; a made-up proof cookie is refused too.
    const wrong = await login(url, "not-the-token-at-all");
    expect(wrong.status).toBe(403);
    expect(wrong.setCookie).not.toContain("chorus_webchat_access");
    expect(await upgradeStatus(url, { origin, cookie: "chorus_webchat_access=forged-proof-value" })).toBe(403);
    expect(await upgradeStatus(url, { origin, cookie: `chorus_webchat_access=${TOKEN}` })).toBe(403);

    // The right token: a proof cookie (HttpOnly, SameSite=Strict, not the token itself) that opens page and chat.
    const right = await httpRequest(new URL("login", url).toString(), {
      method: "POST",
      localAddress: "127.0.0.2",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ token: TOKEN }).toString(),
    });
    expect(right.status).toBe(303);
    const setCookies = [right.headers["set-cookie"] ?? []].flat();
    const proof = setCookies.find((cookie) => cookie.startsWith("chorus_webchat_access=")) ?? "";
    expect(proof).toMatch(/; HttpOnly; SameSite=Strict$/);
    expect(proof).not.toContain(TOKEN);
    const cookie = cookieHeaderOf(setCookies);
    expect(cookie).toMatch(/chorus_webchat=[A-Za-z0-9_-]{43}/);
    const opened = await httpRequest(url, { localAddress: "127.0.0.2", headers: { cookie } });
    expect(opened.status).toBe(200);
    expect(opened.body).toContain("<title>Chorus · WebChat</title>");

    const client = await WebchatClient.connect(url, { cookie, localAddress: "127.0.0.2" });
    try {
      expect(client.hello.admin).toBe(false);
      client.send("dm", "hello");
      await client.until(() => client.botTexts("dm").some((text) => text.includes("ANTHROPIC_API_KEY")));
    } finally {
      await client.close();
    }

    // The right cookies with a Host this bind does not answer to: refused (page and WebSocket).
    for (const host of ["evil.example", `127.0.0.1:${new URL(url).port}`]) {
      expect(await upgradeStatus(url, { origin, cookie, host })).toBe(403);
      expect((await httpRequest(url, { localAddress: "127.0.0.2", headers: { cookie, host } })).status).toBe(403);
    }
    expect(bot.lines.join("\n")).not.toContain(TOKEN);

    // Guessing is slowed down: after 5 wrong tokens within a minute, even the right one waits (429).
    for (let attempt = 2; attempt <= 5; attempt++) expect((await login(url, `guess-${attempt}`)).status).toBe(403);
    expect((await login(url, "guess-6")).status).toBe(429);
    expect((await login(url, TOKEN)).status).toBe(429);
  }, 60_000);

  it("answers to the names in allowedHosts, and only to them", async () => {
    const { url } = await start({ host: "127.0.0.2", accessToken: TOKEN, allowedHosts: ["chat.example.test"] });
    const port = new URL(url).port;
    const named = { origin: `http://chat.example.test:${port}`, host: `chat.example.test:${port}` };
    const { status, setCookie } = await (async () => {
      const response = await httpRequest(new URL("login", url).toString(), {
        method: "POST",
        localAddress: "127.0.0.2",
        headers: { "content-type": "application/x-www-form-urlencoded", ...named },
        body: new URLSearchParams({ token: TOKEN }).toString(),
      });
      return { status: response.status, setCookie: cookieHeaderOf(response.headers["set-cookie"]) };
    })();
    expect(status).toBe(303);
    expect(await upgradeStatus(url, { ...named, cookie: setCookie })).toBe(101);
    expect(await upgradeStatus(url, { origin: new URL(url).origin, host: new URL(url).host, cookie: setCookie })).toBe(
      403,
    );
  }, 60_000);
});
