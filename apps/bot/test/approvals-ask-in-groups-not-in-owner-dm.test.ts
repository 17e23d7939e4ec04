import { access } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelRequests, sentText, startTelegramBot, type TelegramBot } from "./support/telegram-bot-fixture.js";

// No `approvals` in the config: tools that change things ask in a group (even the owner), not in the owner's own DM.
let t: TelegramBot;
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  t = await startTelegramBot();
}, 300_000);

afterAll(async () => {
  await t?.close();
});

function keyboardsIn(chatId: number): { text: string; callback_data: string }[][] {
  return t.telegram.calls
    .filter((call) => String((call.body as { chat_id?: unknown } | undefined)?.chat_id) === String(chatId))
    .map((call) => (call.body as { reply_markup?: unknown }).reply_markup)
    .filter((markup) => markup !== undefined)
    .map((markup) => (typeof markup === "string" ? JSON.parse(markup) : markup) as { inline_keyboard?: unknown })
    .flatMap((markup) => (markup.inline_keyboard ?? []) as { text: string; callback_data: string }[][]);
}

describe("approvals by default", () => {
  it("the owner's exec in their own DM runs without a question", async () => {
    const { telegram, openai } = t;
    openai.enqueue(
      [{ type: "tool_call", name: "exec", args: { command: "touch from-owner-dm.txt" } }],
      [{ type: "text", text: "Touched." }],
    );
    await telegram.injectDm({ text: "touch a file" });
    await sentText(telegram, telegram.user.id, "Touched.");
    await modelRequests(openai, 2);
    expect(await exists(join(t.dataDir, "workspaces", "assistant", "from-owner-dm.txt"))).toBe(true);
    expect(keyboardsIn(telegram.user.id)).toEqual([]);
  }, 60_000);

  it("the same exec asked for in a group waits for an approval with buttons, and runs once approved", async () => {
    const { telegram, openai } = t;
    const file = join(t.dataDir, "workspaces", "assistant", "from-group.txt");
    openai.enqueue(
      [{ type: "tool_call", name: "exec", args: { command: "touch from-group.txt" } }],
      [{ type: "text", text: "Touched in the group." }],
    );
    await telegram.injectGroupMessage({ text: "touch a file from here" });
    await telegram.waitFor(() => keyboardsIn(telegram.group.id).length > 0, 15_000);
    expect(await exists(file)).toBe(false);
    const approve = keyboardsIn(telegram.group.id)
      .flat()
      .find((button) => button.text === "Approve");
    expect(approve?.callback_data).toMatch(/^\/approve \S+$/);
    await telegram.injectCommand({
      command: "approve",
      args: approve?.callback_data.split(" ")[1] ?? "",
      chat: telegram.group,
    });
    await sentText(telegram, telegram.group.id, "Touched in the group.");
    expect(await exists(file)).toBe(true);
  }, 60_000);
});
