import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Bot, webhookCallback } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../src/platforms/index.js";

let fake: FakeTelegram | undefined;
let server: Server | undefined;
afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
  }
  server = undefined;
  await fake?.close();
  fake = undefined;
});

describe("fake Telegram webhook delivery", () => {
  it("posts updates with the secret header; a wrong secret is refused by grammy", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    const texts: string[] = [];
    bot.on("message:text", async (ctx) => {
      texts.push(ctx.message.text);
      await ctx.reply(`got ${ctx.message.text}`);
    });
    server = createServer(webhookCallback(bot, "http", { secretToken: "right-secret" }));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/telegram`;

    await bot.api.setWebhook(url, { secret_token: "right-secret" });
    const good = await fake.injectDm({ text: "via webhook" });
    expect(good).toMatchObject({ ok: true, status: 200 });
    expect(texts).toEqual(["via webhook"]);
    await fake.waitForCall("sendMessage");

    // getUpdates is refused while a webhook is set, as on Telegram.
    await expect(bot.api.getUpdates()).rejects.toMatchObject({ error_code: 409 });

    await bot.api.setWebhook(url, { secret_token: "wrong-secret" });
    const bad = await fake.injectDm({ text: "forged" });
    expect(bad).toMatchObject({ ok: false, status: 401 });
    expect(texts).toEqual(["via webhook"]);
  });
});
