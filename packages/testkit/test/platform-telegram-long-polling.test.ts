import { run } from "@grammyjs/runner";
import { Bot } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../src/platforms/index.js";

let fake: FakeTelegram | undefined;
const stops: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await fake?.close();
  fake = undefined;
});

/** A bot that echoes text; `observe` installs middleware that runs before the echo. */
function echoBot(f: FakeTelegram, observe: (bot: Bot) => void = () => {}): Bot {
  const bot = new Bot(f.token, { client: { apiRoot: f.apiRoot } });
  observe(bot);
  bot.on("message:text", async (ctx) => {
    const thread = ctx.message.is_topic_message ? { message_thread_id: ctx.message.message_thread_id as number } : {};
    await ctx.reply(`echo: ${ctx.message.text}`, {
      reply_parameters: { message_id: ctx.message.message_id },
      ...thread,
    });
  });
  return bot;
}

describe("grammy long polling against the fake Telegram", () => {
  it("receives private, group and forum-topic messages and replies in the right chat and topic", async () => {
    fake = await startFakeTelegram();
    const seen: number[] = [];
    const bot = echoBot(fake, (b) =>
      b.use((ctx, next) => {
        seen.push(ctx.update.update_id);
        return next();
      }),
    );
    await new Promise<void>((resolve) => {
      void bot.start({ onStart: () => resolve() });
    });
    stops.push(() => bot.stop());

    await fake.injectDm({ text: "hello in private" });
    await fake.injectGroupMessage({ text: "hello group" });
    await fake.injectTopicMessage({ text: "hello topic", threadId: 42 });
    await fake.waitForCall("sendMessage", 3);

    expect(fake.conversation(fake.user.id).map((m) => m.text)).toEqual(["hello in private", "echo: hello in private"]);
    expect(fake.conversation(fake.group.id).map((m) => m.text)).toEqual(["hello group", "echo: hello group"]);
    const topic = fake.conversation(fake.forum.id);
    expect(topic.map((m) => [m.text, m.message_thread_id])).toEqual([
      ["hello topic", 42],
      ["echo: hello topic", 42],
    ]);
    expect(topic[1]?.reply_to_message?.message_id).toBe(topic[0]?.message_id);
    expect(topic[1]?.from?.username).toBe("chorus_test_bot");

    await bot.stop();
    stops.length = 0;
    // Offsets were honoured: every update reached the bot exactly once.
    expect(new Set(seen).size).toBe(3);
    expect(seen).toHaveLength(3);
    expect(fake.callsTo("getMe")).toHaveLength(1);
    expect(fake.callsTo("deleteWebhook")).toHaveLength(1);
  });

  it("holds an empty getUpdates for its timeout and answers as soon as an update arrives", async () => {
    fake = await startFakeTelegram();
    const base = `${fake.apiRoot}/bot${fake.token}`;
    const poll = fetch(`${base}/getUpdates`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ timeout: 30 }),
    });
    await fake.waitForCall("getUpdates");
    const delivery = fake.injectDm({ text: "wake up" });
    const body = (await (await poll).json()) as { ok: boolean; result: Array<{ update_id: number }> };
    expect(body.ok).toBe(true);
    expect(body.result).toHaveLength(1);
    expect((await delivery).ok).toBe(true);

    const confirmed = body.result[0]!.update_id + 1;
    const next = await fetch(`${base}/getUpdates?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offset: confirmed, timeout: 0 }),
    });
    expect(((await next.json()) as { result: unknown[] }).result).toEqual([]);
  });

  it("mentions and replies to the bot's own message arrive with entities and reply_to_message", async () => {
    fake = await startFakeTelegram();
    const mentions: string[] = [];
    const repliesToBot: string[] = [];
    const bot = echoBot(fake, (b) => {
      b.on("message:entities:mention", (ctx, next) => {
        mentions.push(ctx.message.text);
        return next();
      });
      b.on("message", (ctx, next) => {
        if (ctx.message.reply_to_message?.from?.id === ctx.me.id) repliesToBot.push(ctx.message.text ?? "");
        return next();
      });
    });
    await new Promise<void>((resolve) => {
      void bot.start({ onStart: () => resolve() });
    });
    stops.push(() => bot.stop());

    await fake.injectMention({ text: "what time is it?" });
    await fake.waitForCall("sendMessage");
    const botMessage = fake.conversation(fake.group.id).at(-1)!;
    await fake.injectReply({ to: botMessage, text: "thanks" });
    await fake.waitForCall("sendMessage", 2);

    expect(mentions).toEqual(["@chorus_test_bot what time is it?"]);
    expect(repliesToBot).toEqual(["thanks"]);
  });

  it("serves @grammyjs/runner with many concurrent updates, each answered once", async () => {
    fake = await startFakeTelegram();
    const bot = echoBot(fake);
    await bot.init();
    const runner = run(bot);
    stops.push(async () => {
      if (runner.isRunning()) await runner.stop();
    });
    const count = 50;
    await Promise.all(Array.from({ length: count }, (_, i) => fake!.injectGroupMessage({ text: `m${i}` })));
    await fake.waitForCall("sendMessage", count);
    const replies = fake
      .conversation(fake.group.id)
      .filter((m) => m.from?.is_bot)
      .map((m) => m.text);
    expect(new Set(replies).size).toBe(count);
    expect(replies).toContain("echo: m49");
  });

  it("keeps two bots apart by token", async () => {
    fake = await startFakeTelegram({ bots: [{ username: "first_bot" }, { username: "second_bot" }] });
    const [a, b] = fake.bots;
    const names: string[] = [];
    for (const account of [a!, b!]) {
      const bot = new Bot(account.token, { client: { apiRoot: fake.apiRoot } });
      bot.on("message:text", (ctx) => {
        names.push(`${ctx.me.username}:${ctx.message.text}`);
      });
      await new Promise<void>((resolve) => {
        void bot.start({ onStart: () => resolve() });
      });
      stops.push(() => bot.stop());
    }
    await fake.injectDm({ text: "only for second", bot: b!.token });
    await fake.injectGroupMessage({ text: "for everyone" });
    await expect.poll(() => names.length).toBe(3);
    expect(names.sort()).toEqual(["first_bot:for everyone", "second_bot:for everyone", "second_bot:only for second"]);
  });
});
