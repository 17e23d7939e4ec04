import { once } from "node:events";
import { run } from "@grammyjs/runner";
import { App, LogLevel } from "@slack/bolt";
import { Client, Events, GatewayIntentBits, Partials } from "discord.js";
import { Bot } from "grammy";
import { it } from "vitest";
import { startFakeDiscord, startFakeSlack, startFakeTelegram } from "../src/platforms/index.js";

it("perf", { timeout: 120_000 }, async () => {
  {
    const f = await startFakeDiscord({ extraTextChannels: 48 });
    const c = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent], partials: [Partials.Channel], rest: { api: f.restApi, globalRequestsPerSecond: 100000 } });
    let n = 0;
    c.on(Events.MessageCreate, (m) => { if (!m.author.bot) { n++; void m.channel.send(`r ${m.content}`); } });
    const ready = once(c, Events.ClientReady); await c.login(f.token); await ready;
    const N = 5000; const t0 = performance.now();
    const chans = f.guild.textChannels;
    for (let i = 0; i < N; i++) void f.injectChannelMessage({ content: `m${i}`, channelId: chans[i % chans.length]!.id });
    await f.waitForCall("createMessage", N, 60_000);
    console.log("discord echo over 50 channels msg/s", Math.round(N / ((performance.now() - t0) / 1000)), n);
    await c.destroy(); await f.close();
  }
  {
    const f = await startFakeTelegram();
    const bot = new Bot(f.token, { client: { apiRoot: f.apiRoot } });
    bot.on("message:text", (ctx) => ctx.reply(`r ${ctx.message.text}`));
    await bot.init(); const r = run(bot);
    const N = 5000; const t0 = performance.now();
    for (let i = 0; i < N; i++) void f.injectGroupMessage({ text: `m${i}`, chat: { id: -100 - (i % 50), type: "supergroup", title: "g" } });
    await f.waitForCall("sendMessage", N, 60_000);
    console.log("telegram runner echo msg/s", Math.round(N / ((performance.now() - t0) / 1000)));
    await r.stop(); await f.close();
  }
  {
    const f = await startFakeSlack({ mode: "socket" });
    const a = new App({ token: f.botToken, appToken: f.appToken, socketMode: true, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: f.apiUrl } });
    a.message(async ({ message, say }) => { await say(`r ${(message as { text?: string }).text}`); });
    await a.start();
    const N = 3000; const t0 = performance.now();
    for (let i = 0; i < N; i++) void f.injectDm({ text: `m${i}` });
    await f.waitForCall("chat.postMessage", N, 60_000);
    console.log("slack socket echo msg/s", Math.round(N / ((performance.now() - t0) / 1000)));
    await a.stop(); await f.close();
  }
});
