import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everythingSentTo, sentText, startTelegramBot, type TelegramBot } from "./support/telegram-bot-fixture.js";

const UNREADABLE = "I can't see photos, voice notes or stickers yet — please send text.";

// The bot on the fake Anthropic Messages API, which refuses an empty text block with 400 as the real one does.
let t: TelegramBot;

beforeAll(async () => {
  t = await startTelegramBot([], undefined, "anthropic");
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe("a Telegram message with no text", () => {
  it("a photo, a voice note and a sticker each get one sentence; none reaches the model; later text is answered", async () => {
    const { telegram, openai: anthropic } = t;
    for (const kind of ["photo", "voice", "sticker"] as const) {
      const before = telegram.calls.length;
      await telegram.injectMedia({ kind });
      await telegram.waitFor(
        (call) =>
          telegram.calls.indexOf(call) >= before &&
          call.method === "sendMessage" &&
          (call.body as { text?: string }).text === UNREADABLE,
        15_000,
      );
    }
    expect(anthropic.requests).toHaveLength(0);
    anthropic.enqueue([{ type: "text", text: "Hello, I read you." }]);
    await telegram.injectDm({ text: "hello" });
    await sentText(telegram, telegram.user.id, "Hello, I read you.");
    anthropic.enqueue([{ type: "text", text: "Still fine." }]);
    await telegram.injectDm({ text: "and again" });
    await sentText(telegram, telegram.user.id, "Still fine.");
    const sent = everythingSentTo(telegram, telegram.user.id);
    expect(sent).not.toContain("400");
    expect(sent).not.toContain("invalid_request_error");
  }, 90_000);

  it("a photo in the group that is not addressed to the bot is left alone", async () => {
    const { telegram, openai: anthropic } = t;
    const requests = anthropic.requests.length;
    await telegram.injectMedia({ kind: "sticker", chat: telegram.group });
    anthropic.enqueue([{ type: "text", text: "Group answer." }]);
    await telegram.injectGroupMessage({ text: "hi bot" });
    await sentText(telegram, telegram.group.id, "Group answer.");
    expect(everythingSentTo(telegram, telegram.group.id)).not.toContain("I can't see photos");
    expect(anthropic.requests).toHaveLength(requests + 1);
  }, 60_000);
});
