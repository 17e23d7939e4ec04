import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelRequests, sentText, startTelegramBot, type TelegramBot } from "./support/telegram-bot-fixture.js";

let t: TelegramBot;

beforeAll(async () => {
  t = await startTelegramBot([], undefined, "openai", ["onRestart: resume"]);
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe("onRestart: resume in chorus.config.yaml", () => {
  it("a turn a crash interrupted is answered by itself after the restart", async () => {
    const { telegram, openai } = t;
    openai.enqueue([
      { type: "stall", ms: 60_000 },
      { type: "text", text: "too late" },
    ]);
    await telegram.injectDm({ text: "write me a long story" });
    await modelRequests(openai, 1);
    await t.restart();
    openai.enqueue([{ type: "text", text: "Here is the story, resumed." }]);
    await sentText(telegram, telegram.user.id, "Here is the story, resumed.", 30_000);
    const resumed = JSON.stringify((await modelRequests(openai, 2)).body.messages);
    expect(resumed).toContain("write me a long story");
  }, 90_000);
});
