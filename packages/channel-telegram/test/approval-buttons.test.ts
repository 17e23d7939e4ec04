import { deployProbe, NOT_YOURS_TO_ANSWER, startChannelGateway, tryDeploy } from "@chorus/gateway-testing";
import { startFakeTelegram, TELEGRAM_STRANGER, TestCleanup, type TgMessage } from "@chorus/testkit";
import { createApprovalPolicy } from "@chorus/tools";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

describe("Telegram approval buttons (grammy ↔ fake Telegram ↔ Gateway)", () => {
  it("shows an inline keyboard under the request; a stranger's press is refused, the requester's runs the call", async () => {
    const f = cleanup.track(await startFakeTelegram());
    const { tool: deploy, deployed } = deployProbe();
    cleanup.track(
      await startChannelGateway({
        channels: [createTelegramChannel({ accountId: "tg", token: f.token, apiRoot: f.apiRoot })],
        config: {
          channels: [{ channel: "telegram", dmPolicy: "open", groupPolicy: "open", admins: [String(f.user.id)] }],
        },
        script: tryDeploy,
        gateway: { agents: { main: { tools: [deploy], policies: [createApprovalPolicy({ require: ["deploy"] })] } } },
      }),
    );
    const botId = f.bots[0]!.user.id;
    const botMessages = (): TgMessage[] => f.conversation(f.group.id).filter((m) => m.from?.id === botId);

    await f.injectMention({ text: "ship it" });
    await expect.poll(() => botMessages().length).toBe(1);
    const request = botMessages()[0]!;
    expect(request.text).toContain("Approval needed: the agent wants to run deploy");
    const keyboard = (request.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] })
      .inline_keyboard;
    expect(keyboard[0]!.map((button) => button.text)).toEqual(["Approve", "Deny"]);
    const approve = keyboard[0]![0]!.callback_data;
    expect(approve).toMatch(/^\/approve [a-z0-9]{6}$/);

    await f.injectCallbackQuery({ data: approve, message: request, from: TELEGRAM_STRANGER });
    await expect.poll(() => botMessages().map((m) => m.text)).toContain(NOT_YOURS_TO_ANSWER);
    expect(deployed).toEqual([]);

    await f.injectCallbackQuery({ data: approve, message: request });
    await expect.poll(() => botMessages().at(-1)?.text).toBe("result: deployed prod");
    expect(deployed).toEqual(["prod"]);
    expect(f.callsTo("answerCallbackQuery")).toHaveLength(2);
    // The request now says how it ended, and its keyboard is gone: nothing left to press.
    await expect.poll(() => botMessages()[0]?.text).toMatch(/\nApproved by .+\.$/);
    expect(botMessages()[0]).not.toHaveProperty("reply_markup");
  });
});
