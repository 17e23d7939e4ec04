import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, GrammyError } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../src/platforms/index.js";

let fake: FakeTelegram | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("fake Telegram fault injection", () => {
  it("a 429 with retry_after is retried by @grammyjs/auto-retry and the message lands once", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    bot.api.config.use(autoRetry({ maxDelaySeconds: 5 }));
    await fake.injectDm({ text: "open the chat" });
    fake.failNext({ method: "sendMessage", status: 429, retryAfterSeconds: 1 });

    const sent = await bot.api.sendMessage(fake.user.id, "after the rate limit");

    const attempts = fake.callsTo("sendMessage");
    expect(attempts.map((c) => c.status)).toEqual([429, 200]);
    expect(fake.conversation(fake.user.id).filter((m) => m.text === "after the rate limit")).toHaveLength(1);
    expect(sent.message_id).toBe(fake.conversation(fake.user.id).at(-1)?.message_id);
  });

  it("without a transformer grammy surfaces the 429 as a GrammyError with retry_after", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    await fake.injectDm({ text: "hi" });
    fake.failNext({ method: "sendMessage", status: 429, retryAfterSeconds: 7 });
    const error = await bot.api.sendMessage(fake.user.id, "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(429);
    expect((error as GrammyError).parameters.retry_after).toBe(7);
  });

  it("bot.start() survives a failing getUpdates and still receives the update", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    const texts: string[] = [];
    bot.on("message:text", (ctx) => {
      texts.push(ctx.message.text);
    });
    fake.failNext({ method: "getUpdates", status: 429, retryAfterSeconds: 0 });
    await fake.injectDm({ text: "delivered after the error" });
    const started = new Promise<void>((resolve) => {
      void bot.start({ onStart: () => resolve() });
    });
    try {
      await started;
      await expect.poll(() => texts).toEqual(["delivered after the error"]);
      expect(fake.callsTo("getUpdates")[0]?.status).toBe(429);
    } finally {
      await bot.stop();
    }
  });

  it("rejects unknown tokens and reports Telegram's own validation errors", async () => {
    fake = await startFakeTelegram();
    const stranger = new Bot("999:not-a-real-token", { client: { apiRoot: fake.apiRoot } });
    await expect(stranger.api.getMe()).rejects.toMatchObject({ error_code: 401 });
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    await expect(bot.api.sendMessage(123456, "nobody")).rejects.toMatchObject({
      description: "Bad Request: chat not found",
    });
    await fake.injectDm({ text: "hi" });
    const sent = await bot.api.sendMessage(fake.user.id, "same");
    await expect(bot.api.editMessageText(fake.user.id, sent.message_id, "same")).rejects.toMatchObject({
      error_code: 400,
    });
    const edited = await bot.api.editMessageText(fake.user.id, sent.message_id, "changed");
    expect(edited).toMatchObject({ text: "changed" });
    expect(fake.conversation(fake.user.id).at(-1)?.text).toBe("changed");
  });
});
