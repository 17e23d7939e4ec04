import { type FakeTelegram, startFakeTelegram } from "@chorus/testkit";
import { afterEach, expect, it } from "vitest";
import { cleanUpChildren, freshDbPath, startGatewayChild } from "./durable-child-harness.js";

let fake: FakeTelegram | undefined;

afterEach(async () => {
  await cleanUpChildren();
  await fake?.close();
  fake = undefined;
});

function botTexts(f: FakeTelegram, chatId: number): string[] {
  return f
    .conversation(chatId)
    .filter((m) => m.from?.id === f.bots[0]?.user.id)
    .map((m) => m.text ?? "");
}

it("answers an update Telegram serves again after a crash (offset never confirmed) only once", async () => {
  const f = await startFakeTelegram();
  fake = f;
  const dbPath = freshDbPath();
  const telegram = { apiRoot: f.apiRoot, token: f.token, admins: [String(f.user.id)] };

  const first = await startGatewayChild({ dbPath, telegram });
  await f.injectDm({ text: "hello" });
  await first.waitFor((line) => line.type === "marked-sent", "the reply was delivered");
  await first.kill();

  // The process died before a getUpdates with a later offset reached Telegram: the update is served again.
  expect(f.redeliver(f.token, 1)).toBe(1);
  const second = await startGatewayChild({ dbPath, telegram });
  await f.injectDm({ text: "next" });
  await second.waitFor((line) => line.type === "marked-sent", "the reply to the new update was delivered");
  await second.kill();

  expect(botTexts(f, f.user.id)).toEqual(["echo: hello", "echo: next"]);
  // The second process did receive the old update again, with the same event id: the dedupe kept it unanswered.
  const inbound = (lines: typeof first.lines) => lines.filter((line) => line.type === "inbound");
  const [original] = inbound(first.lines);
  expect(original?.text).toBe("hello");
  expect(inbound(second.lines).map((line) => [line.eventId, line.text])).toEqual([
    [original?.eventId, "hello"],
    [expect.any(String), "next"],
  ]);
});

it("delivers a reply a crash left unsent through Telegram once the channel is up again", async () => {
  const f = await startFakeTelegram();
  fake = f;
  const dbPath = freshDbPath();
  const telegram = { apiRoot: f.apiRoot, token: f.token, admins: [String(f.user.id)] };

  // The send never reaches Telegram: the reply is in flight when the process dies.
  const first = await startGatewayChild({ dbPath, telegram, send: "hang-before" });
  await f.injectDm({ text: "hello" });
  await first.waitFor((line) => line.type === "send-attempt", "the reply's send began");
  await first.kill();
  expect(botTexts(f, f.user.id)).toEqual([]);

  // At start the reply is due at once; it must wait for the Telegram channel to start rather than fail for good.
  const second = await startGatewayChild({ dbPath, telegram });
  await second.waitFor((line) => line.type === "marked-sent", "the reply was delivered after the restart");
  await second.kill();
  expect(botTexts(f, f.user.id)).toEqual(["echo: hello\n\n(resent after restart)"]);
  expect(second.lines.filter((line) => line.type === "marked-failed")).toEqual([]);
});
