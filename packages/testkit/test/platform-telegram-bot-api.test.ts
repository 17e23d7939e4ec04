import { Bot } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../src/platforms/index.js";

let fake: FakeTelegram | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("fake Telegram Bot API methods", () => {
  it("streams drafts in private chats only, deletes messages and keeps commands", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    await fake.injectDm({ text: "hi" });

    await expect(bot.api.sendMessageDraft(fake.user.id, 1, "Thinking")).resolves.toBe(true);
    await expect(bot.api.sendMessageDraft(fake.group.id, 1, "x")).rejects.toMatchObject({ error_code: 400 });
    const sent = await bot.api.sendMessage(fake.user.id, "final");
    await bot.api.deleteMessage(fake.user.id, sent.message_id);
    expect(fake.conversation(fake.user.id).map((m) => m.text)).toEqual(["hi"]);

    await bot.api.setMyCommands([{ command: "ask", description: "Ask" }]);
    expect(await bot.api.getMyCommands()).toEqual([{ command: "ask", description: "Ask" }]);
  });

  it("parses parse_mode HTML into text and entities, and refuses bad markup like Telegram", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    await fake.injectDm({ text: "hi" });

    const sent = await bot.api.sendMessage(
      fake.user.id,
      '<b>Bold</b> &lt;tag&gt; <a href="https://example.com">link</a>\n<pre><code class="language-ts">x &amp;&amp; y</code></pre>',
      { parse_mode: "HTML" },
    );
    expect(sent.text).toBe("Bold <tag> link\nx && y");
    expect(sent.entities).toEqual([
      { type: "bold", offset: 0, length: 4 },
      { type: "text_link", offset: 11, length: 4, url: "https://example.com" },
      { type: "pre", offset: 16, length: 6, language: "ts" },
    ]);

    await expect(bot.api.sendMessage(fake.user.id, "<p>para</p>", { parse_mode: "HTML" })).rejects.toMatchObject({
      description: 'Bad Request: can\'t parse entities: Unsupported start tag "p" at byte offset 0',
    });
    await expect(bot.api.sendMessage(fake.user.id, "<b>open", { parse_mode: "HTML" })).rejects.toMatchObject({
      description: "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
    });
    await expect(bot.api.sendMessage(fake.user.id, "a < b", { parse_mode: "HTML" })).rejects.toMatchObject({
      error_code: 400,
    });
    // Without parse_mode the same characters are plain text.
    await expect(bot.api.sendMessage(fake.user.id, "a < b")).resolves.toMatchObject({ text: "a < b" });
  });

  it("keeps an inline keyboard through an edit that passes it, and drops it when an edit leaves it out", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    await fake.injectDm({ text: "hi" });
    const keyboard = { inline_keyboard: [[{ text: "Yes", callback_data: "yes" }]] };
    const sent = await bot.api.sendMessage(fake.user.id, "pick one", { reply_markup: keyboard });
    const stored = () => fake!.conversation(fake!.user.id).at(-1);

    await bot.api.editMessageText(fake.user.id, sent.message_id, "pick one, please", { reply_markup: keyboard });
    expect(stored()).toMatchObject({ text: "pick one, please", reply_markup: keyboard });
    // Same text and the same keyboard: nothing to change, as Telegram says.
    await expect(
      bot.api.editMessageText(fake.user.id, sent.message_id, "pick one, please", { reply_markup: keyboard }),
    ).rejects.toMatchObject({ error_code: 400, description: expect.stringContaining("message is not modified") });
    // Same text without the keyboard is a change: the keyboard goes.
    await bot.api.editMessageText(fake.user.id, sent.message_id, "pick one, please");
    expect(stored()).not.toHaveProperty("reply_markup");
  });

  it("delivers callback queries and commands to grammy handlers", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    const seen: string[] = [];
    bot.command("start", (ctx) => {
      seen.push(`command:${ctx.match}`);
    });
    bot.on("callback_query:data", async (ctx) => {
      seen.push(`button:${ctx.callbackQuery.data}`);
      await ctx.answerCallbackQuery({ text: "ok" });
    });
    await new Promise<void>((resolve) => {
      void bot.start({ onStart: () => resolve() });
    });
    try {
      await fake.injectCommand({ command: "start", args: "now" });
      await bot.api.sendMessage(fake.user.id, "pick one");
      await fake.injectCallbackQuery({ data: "yes", message: fake.conversation(fake.user.id).at(-1)! });
      await fake.waitForCall("answerCallbackQuery");
      expect(seen).toEqual(["command:now", "button:yes"]);
    } finally {
      await bot.stop();
    }
  });
});
