import { type FakeTelegram, startFakeTelegram, type TgMessage } from "@chorus/testkit";
import { afterEach, expect, it } from "vitest";
import { cleanUpChildren, freshDbPath, startGatewayChild } from "./durable-child-harness.js";

let fake: FakeTelegram | undefined;

afterEach(async () => {
  await cleanUpChildren();
  await fake?.close();
  fake = undefined;
});

it("after a crash, a waiting approval request's message says the bot restarted and loses its buttons", async () => {
  const f = await startFakeTelegram();
  fake = f;
  const dbPath = freshDbPath();
  const telegram = { apiRoot: f.apiRoot, token: f.token, admins: [String(f.user.id)] };
  const botMessages = (): TgMessage[] => f.conversation(f.user.id).filter((m) => m.from?.id === f.bots[0]?.user.id);

  const first = await startGatewayChild({ dbPath, telegram, approvals: true });
  await f.injectDm({ text: "deploy" });
  await first.waitFor((line) => line.type === "marked-sent", "the approval request was delivered");
  const [request] = botMessages();
  expect(request?.text).toContain("Approval needed");
  expect(request?.reply_markup).toBeDefined();
  await first.kill();

  const second = await startGatewayChild({ dbPath, telegram, approvals: true });
  await expect.poll(() => botMessages()[0]?.text, { timeout: 5_000 }).toContain("Withdrawn: the bot restarted");
  const settled = botMessages()[0];
  expect(settled?.message_id).toBe(request?.message_id);
  expect(settled).not.toHaveProperty("reply_markup");
  // The chat is also told its run was interrupted, once.
  await expect
    .poll(() => botMessages().map((m) => m.text ?? ""), { timeout: 5_000 })
    .toEqual([expect.stringContaining("Withdrawn"), expect.stringContaining("I was restarted while working on this")]);
  await second.kill();

  // A third start finds nothing left to settle: by the time it answers a new message (the same chat's outbox leaves in
  // order), it has neither edited the request again nor told the chat anything more.
  const edits = f.callsTo("editMessageText").length;
  const third = await startGatewayChild({ dbPath, telegram, approvals: true });
  await f.injectDm({ text: "hello" });
  await third.waitFor((line) => line.type === "marked-sent", "the reply to hello was delivered");
  await third.kill();
  expect(f.callsTo("editMessageText")).toHaveLength(edits);
  expect(botMessages().map((m) => m.text ?? "")).toEqual([
    expect.stringContaining("Withdrawn"),
    expect.stringContaining("I was restarted while working on this"),
    "echo: hello",
  ]);
});
