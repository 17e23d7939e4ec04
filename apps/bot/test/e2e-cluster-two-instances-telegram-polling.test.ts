// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { type FakeTelegram, startFakeOpenAI, startFakeTelegram } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";
import { echoEveryMessage, startClusterInstance } from "./support/cluster-instances.js";

type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

let dir: string;
let database: ScratchDatabase;
let telegram: FakeTelegram;
let openai: FakeOpenAI;
const bots: BotProcess[] = [];

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-e2e-telegram-polling-"));
  database = await createScratchDatabase();
  telegram = await startFakeTelegram();
  openai = await startFakeOpenAI();
}, 300_000);

afterAll(async () => {
  for (const bot of bots) await bot.kill();
  await telegram?.close();
  await openai?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("two chorus start instances in cluster mode on one Telegram bot in polling mode", () => {
  it("polls from one instance, and after kill -9 of it the other polls and answers what was sent meanwhile, once", async () => {
    echoEveryMessage(openai, 50);
    const start = async (name: string): Promise<BotProcess> => {
      const bot = await startClusterInstance({
        dir,
        name,
        openai,
        databaseUrl: database.url,
        channels: [
          "  telegram:",
          "    - accountId: main",
          "      token: ${E2E_TELEGRAM_TOKEN}",
          `      apiRoot: ${JSON.stringify(telegram.apiRoot)}`,
          "      dmPolicy: open",
        ],
        env: { E2E_TELEGRAM_TOKEN: telegram.token },
      });
      bots.push(bot);
      return bot;
    };
    const a = await start("a");
    const poller = async (): Promise<string> => {
      const { rows } = await queryOnce(
        database.url,
        "SELECT coalesce(split_part(owner, '#', 1), '') AS holder FROM ingress_leases WHERE unit LIKE 'telegram:%'",
      );
      return rows.map((row) => String(row.holder)).join(",");
    };
    await vi.waitFor(async () => expect(await poller()).toBe("a"), { timeout: 20_000, interval: 200 });
    const b = await start("b");
    const users = Array.from({ length: 4 }, (_, i) => ({ id: 8100 + i, is_bot: false, first_name: `User${i}` }));
    const answers = (userId: number): string[] =>
      telegram
        .conversation(userId)
        .filter((message) => message.from?.is_bot === true)
        .map((message) => message.text ?? "");
    for (const user of users) await telegram.injectDm({ from: user, text: `one from ${user.id}` });
    await vi.waitFor(
      () => expect(users.map((user) => answers(user.id))).toEqual(users.map((user) => [`echo: one from ${user.id}`])),
      { timeout: 20_000, interval: 100 },
    );
    // One instance polls: a, which held the unit first — or b, when a loaded machine let a's lease lapse (a heartbeat
    // starved past two thirds of the lease) and b took the unit, as it should then.
    const pollerName = await poller();
    expect(["a", "b"]).toContain(pollerName);
    const [victim, survivor, survivorName] = pollerName === "a" ? [a, b, "b"] : [b, a, "a"];

    // kill -9 of the poller: messages sent meanwhile wait at Telegram; the other polls once the lease expired and
    // answers each once.
    victim.child.kill("SIGKILL");
    await victim.exited;
    for (const user of users) await telegram.injectDm({ from: user, text: `two from ${user.id}` });
    await vi.waitFor(
      async () => {
        expect(await poller()).toBe(survivorName);
        expect(users.map((user) => answers(user.id))).toEqual(
          users.map((user) => [`echo: one from ${user.id}`, `echo: two from ${user.id}`]),
        );
      },
      { timeout: 30_000, interval: 200 },
    );
    survivor.child.kill("SIGTERM");
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
    expect(await poller()).toBe("");
    expect(users.map((user) => answers(user.id))).toEqual(
      users.map((user) => [`echo: one from ${user.id}`, `echo: two from ${user.id}`]),
    );
    for (const bot of [a, b]) expect(bot.lines.join("\n")).not.toContain(telegram.token);
  }, 120_000);
});
