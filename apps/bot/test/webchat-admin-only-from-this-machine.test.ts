import { describe, expect, it } from "vitest";
import { browserCookies, webchatBotSuite, writeWebchatConfig } from "./support/webchat-bot-process.js";

// `localAdmin: true` makes browsers on this machine the owner. "This machine" is the TCP peer 127.0.0.1 or ::1 only:
// 127.0.0.2 (standing for another machine here) and anything a reverse proxy forwards are guests.

const bot = webchatBotSuite("chorus-local-admin-", { localAdmin: true });
const connect = bot.connect;

describe("WebChat admins with localAdmin: true", () => {
  it("a browser on 127.0.0.2 is a guest: not admin in hello, /agents refused", async () => {
    const url = bot.running().url;
    const remote = await connect({ cookie: await browserCookies(url, "127.0.0.2"), localAddress: "127.0.0.2" });
    expect(remote.hello.admin).toBe(false);
    expect(await remote.ask("dm", "/agents")).toBe("You are not authorised to use /agents.");
  }, 30_000);

  it("a connection forwarded by a proxy on this machine is a guest too", async () => {
    const url = bot.running().url;
    const proxied = await connect({
      cookie: await browserCookies(url, "127.0.0.1"),
      localAddress: "127.0.0.1",
      headers: { "x-forwarded-for": "203.0.113.7" },
    });
    expect(proxied.hello.admin).toBe(false);
    expect(await proxied.ask("dm", "/agents")).toBe("You are not authorised to use /agents.");
  }, 30_000);

  it("a browser on 127.0.0.1 is the admin, and only over its own connection", async () => {
    const url = bot.running().url;
    const cookie = await browserCookies(url, "127.0.0.1");
    const local = await connect({ cookie, localAddress: "127.0.0.1" });
    expect(local.hello.admin).toBe(true);
    expect(await local.ask("dm", "/agents")).toContain("**Fleet**");
    // The same browser's credential, used from the other machine: that connection is not an admin.
    const elsewhere = await connect({ cookie, localAddress: "127.0.0.2" });
    expect(elsewhere.hello.publicId).toBe(local.hello.publicId);
    expect(elsewhere.hello.admin).toBe(false);
    expect(await elsewhere.ask("dm", "/agents")).toBe("You are not authorised to use /agents.");
  }, 30_000);

  it("a browser elsewhere is an admin once its public id is listed under admins.webchat, and nobody else is", async () => {
    const url = bot.running().url;
    const cookie = await browserCookies(url, "127.0.0.2");
    const before = await connect({ cookie, localAddress: "127.0.0.2" });
    const publicId = before.hello.publicId;
    expect(await before.ask("dm", "/agents")).toBe("You are not authorised to use /agents.");

    await writeWebchatConfig(bot.dir(), { localAdmin: true, admins: [publicId] }, Number(new URL(url).port));
    bot.running().bot.child.kill("SIGHUP");
    await bot.running().bot.waitForLine(/configuration reloaded/);

    const listed = await connect({ cookie, localAddress: "127.0.0.2" });
    expect(await listed.ask("dm", "/agents")).toContain("**Fleet**");
    // Its public id in another browser's cookie does not make that browser the listed admin.
    const copier = await connect({
      cookie: `chorus_webchat=${publicId}; chorus_browser=${publicId}`,
      localAddress: "127.0.0.2",
    });
    expect(copier.hello.publicId).not.toBe(publicId);
    expect(await copier.ask("dm", "/agents")).toBe("You are not authorised to use /agents.");
  }, 30_000);
});
