import { join } from "node:path";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everythingSentTo, sentText, startTelegramBot, type TelegramBot } from "./support/telegram-bot-fixture.js";

// What an older version stored for `/schedule in 99999999999d x`: a next run no Date (nor a JS number) can hold.
const AFAR = 99_999_999_999 * 86_400_000;

async function writeUnreadableSchedule(dataDir: string): Promise<void> {
  const store = SqliteSessionStore.open({ path: join(dataDir, "chorus.db"), checkpointIntervalMs: 0 });
  const now = Date.now();
  const data = {
    spec: { kind: "at", at: now + AFAR },
    prompt: "x",
    agentId: "assistant",
    sessionKey: "agent:assistant:telegram:main:dm:1001",
    fresh: false,
    ownerId: "1001",
    ownerSessionKey: "agent:assistant:telegram:main:dm:1001",
    runs: 0,
    spentTokens: 0,
    spentCost: 0,
  };
  store.database
    .prepare(
      "INSERT INTO schedules (id, status, next_run_at, data, created_at, updated_at) VALUES (?, 'active', ?, ?, ?, ?)",
    )
    .run("s-afar", BigInt(now) + BigInt(AFAR), JSON.stringify(data), now, now);
  await store.close();
}

let t: TelegramBot;

beforeAll(async () => {
  // On the old code the bot exited at start on this data dir ("Value is too large to be represented…").
  t = await startTelegramBot([], writeUnreadableSchedule);
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe("a schedule value out of range", () => {
  it("a stored row the bot cannot read is reported and skipped: the bot starts and answers", async () => {
    const { telegram, openai } = t;
    expect(t.bot.lines.some((line) => line.includes("stored schedule cannot be read") && line.includes("s-afar"))).toBe(
      true,
    );
    openai.enqueue([{ type: "text", text: "Still here." }]);
    await telegram.injectDm({ text: "hello?" });
    await sentText(telegram, telegram.user.id, "Still here.");
    await telegram.injectDm({ text: "/schedule list" });
    await telegram.waitFor(
      () => everythingSentTo(telegram, telegram.user.id).includes("none (admins create them with /schedule)"),
      15_000,
    );
  }, 60_000);

  it("`/schedule in|every 99999999999d` is refused with a sentence and stores nothing", async () => {
    const { telegram } = t;
    for (const verb of ["in", "every"]) {
      await telegram.injectDm({ text: `/schedule ${verb} 99999999999d x` });
      await sentText(
        telegram,
        telegram.user.id,
        '"99999999999d" is too long: the longest interval is 36500d (about 100 years).',
      );
    }
    await telegram.injectDm({ text: "/schedule list" });
    await telegram.waitFor(
      () => everythingSentTo(telegram, telegram.user.id).includes("none (admins create them with /schedule)"),
      15_000,
    );
    expect(everythingSentTo(telegram, telegram.user.id)).not.toContain("created");
  }, 60_000);
});
