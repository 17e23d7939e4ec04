import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBot } from "./support/build-bot.js";
import {
  browserCookies,
  startWebchatBotProcess,
  type WebchatBotProcess,
  writeWebchatConfig,
} from "./support/webchat-bot-process.js";
import { WebchatClient } from "./support/webchat-client.js";

// `localAdmin: true` makes browsers on this machine the owner. "This machine" is the TCP peer 127.0.0.1 or ::1 only:
// 127.0.0.2 (standing for another machine here) and anything a reverse proxy forwards are guests.

let dir: string;
let running: WebchatBotProcess | undefined;
const clients: WebchatClient[] = [];

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-local-admin-"));
  running = await startWebchatBotProcess(dir, { localAdmin: true });
}, 300_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await running?.bot.kill();
  await rm(dir, { recursive: true, force: true });
});

async function connect(options: Parameters<typeof WebchatClient.connect>[1]): Promise<WebchatClient> {
  const client = await WebchatClient.connect(running?.url ?? "", options);
  clients.push(client);
  return client;
}

async function agentsAnswer(client: WebchatClient): Promise<string> {
  const before = client.botTexts("dm").length;
  client.send("dm", "/agents");
  await client.until(() => client.botTexts("dm").length > before);
  return client.botTexts("dm").slice(before).join("\n");
}

describe("WebChat admins with localAdmin: true", () => {
  it("a browser on 127.0.0.2 is a guest: not admin in hello, /agents refused", async () => {
    const url = running?.url ?? "";
    const remote = await connect({ cookie: await browserCookies(url, "127.0.0.2"), localAddress: "127.0.0.2" });
    expect(remote.hello.admin).toBe(false);
    expect(await agentsAnswer(remote)).toBe("You are not authorised to use /agents.");
  }, 30_000);

  it("a connection forwarded by a proxy on this machine is a guest too", async () => {
    const url = running?.url ?? "";
    const proxied = await connect({
      cookie: await browserCookies(url, "127.0.0.1"),
      localAddress: "127.0.0.1",
      headers: { "x-forwarded-for": "203.0.113.7" },
    });
    expect(proxied.hello.admin).toBe(false);
    expect(await agentsAnswer(proxied)).toBe("You are not authorised to use /agents.");
  }, 30_000);

  it("a browser on 127.0.0.1 is the admin, and only over its own connection", async () => {
    const url = running?.url ?? "";
    const cookie = await browserCookies(url, "127.0.0.1");
    const local = await connect({ cookie, localAddress: "127.0.0.1" });
    expect(local.hello.admin).toBe(true);
    expect(await agentsAnswer(local)).toContain("**Fleet**");
    // The same browser's credential, used from the other machine: that connection is not an admin.
    const elsewhere = await connect({ cookie, localAddress: "127.0.0.2" });
    expect(elsewhere.hello.publicId).toBe(local.hello.publicId);
    expect(elsewhere.hello.admin).toBe(false);
    expect(await agentsAnswer(elsewhere)).toBe("You are not authorised to use /agents.");
  }, 30_000);

  it("a browser elsewhere is an admin once its public id is listed under admins.webchat, and nobody else is", async () => {
    const url = running?.url ?? "";
    const cookie = await browserCookies(url, "127.0.0.2");
    const before = await connect({ cookie, localAddress: "127.0.0.2" });
    const publicId = before.hello.publicId;
    expect(await agentsAnswer(before)).toBe("You are not authorised to use /agents.");

    await writeWebchatConfig(dir, { localAdmin: true, admins: [publicId] }, Number(new URL(url).port));
    running?.bot.child.kill("SIGHUP");
    await running?.bot.waitForLine(/configuration reloaded/);

    const listed = await connect({ cookie, localAddress: "127.0.0.2" });
    expect(await agentsAnswer(listed)).toContain("**Fleet**");
    // Its public id in another browser's cookie does not make that browser the listed admin.
    const copier = await connect({
      cookie: `chorus_webchat=${publicId}; chorus_browser=${publicId}`,
      localAddress: "127.0.0.2",
    });
    expect(copier.hello.publicId).not.toBe(publicId);
    expect(await agentsAnswer(copier)).toBe("You are not authorised to use /agents.");
  }, 30_000);
});
