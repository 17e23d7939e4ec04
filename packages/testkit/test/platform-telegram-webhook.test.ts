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

/** A webhook that answers the given statuses in turn (then 200), recording each update_id it was posted. */
async function webhookAnswering(statuses: number[]): Promise<{ url: string; posted: number[] }> {
  const posted: number[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      posted.push((JSON.parse(Buffer.concat(chunks).toString()) as { update_id: number }).update_id);
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/telegram`, posted };
}

describe("fake Telegram webhook retry, as Telegram posts an unacknowledged update again", () => {
  it("posts the same update_id again after a 5xx until the webhook acknowledges it", async () => {
    fake = await startFakeTelegram({ webhookRetry: { attempts: 3, delayMs: 20 } });
    const hook = await webhookAnswering([500, 503]);
    await new Bot(fake.token, { client: { apiRoot: fake.apiRoot } }).api.setWebhook(hook.url);

    const delivery = await fake.injectDm({ text: "hello" });

    expect(delivery).toMatchObject({ ok: true, status: 200 });
    expect(hook.posted).toHaveLength(3);
    expect(new Set(hook.posted).size).toBe(1);
  });

  it("gives up after the configured attempts and settles with the last answer", async () => {
    fake = await startFakeTelegram({ webhookRetry: { attempts: 2, delayMs: 20 } });
    const hook = await webhookAnswering([500, 500, 502, 500]);
    await new Bot(fake.token, { client: { apiRoot: fake.apiRoot } }).api.setWebhook(hook.url);

    const delivery = await fake.injectDm({ text: "hello" });

    expect(delivery).toMatchObject({ ok: false, status: 502 });
    expect(hook.posted).toHaveLength(3);
  });

  it("without the option settles with the first answer", async () => {
    fake = await startFakeTelegram();
    const hook = await webhookAnswering([500]);
    await new Bot(fake.token, { client: { apiRoot: fake.apiRoot } }).api.setWebhook(hook.url);

    expect(await fake.injectDm({ text: "hello" })).toMatchObject({ ok: false, status: 500 });
    expect(hook.posted).toHaveLength(1);
  });
});
