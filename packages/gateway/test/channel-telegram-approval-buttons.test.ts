import { defineTool, type StreamContext } from "@chorus/core";
import { type FakeTelegram, startFakeTelegram, type TgMessage, type TgUser } from "@chorus/testkit";
import { createApprovalPolicy } from "@chorus/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTelegramChannel } from "../src/channels/index.js";
import { type ChannelGateway, startChannelGateway } from "./channel-gateway-harness.js";

let fake: FakeTelegram | undefined;
let running: ChannelGateway | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake?.close();
  fake = undefined;
});

const STRANGER: TgUser = { id: 3003, is_bot: false, first_name: "Mallory" };

/** Asks to deploy once, then reports the tool result it got. */
function tryDeploy(context: StreamContext) {
  const last = context.messages.at(-1) as { role: string; content: { text?: string }[] | string };
  if (last.role === "toolResult") {
    const text = typeof last.content === "string" ? last.content : last.content.map((c) => c.text ?? "").join("");
    return `result: ${text}`;
  }
  return { toolCalls: [{ name: "deploy", args: { target: "prod" } }] };
}

describe("Telegram approval buttons (grammy ↔ fake Telegram ↔ Gateway)", () => {
  it("shows an inline keyboard under the request; a stranger's press is refused, the requester's runs the call", async () => {
    const f = await startFakeTelegram();
    fake = f;
    const deployed: string[] = [];
    const deploy = defineTool({
      name: "deploy",
      description: "deploys the app",
      category: "exec",
      parameters: z.object({ target: z.string() }),
      execute: async ({ target }) => {
        deployed.push(target);
        return { content: [{ type: "text", text: `deployed ${target}` }] };
      },
    });
    running = await startChannelGateway({
      channels: [createTelegramChannel({ accountId: "tg", token: f.token, apiRoot: f.apiRoot })],
      config: {
        channels: [{ channel: "telegram", dmPolicy: "open", groupPolicy: "open", admins: [String(f.user.id)] }],
      },
      script: tryDeploy,
      gateway: { agents: { main: { tools: [deploy], policies: [createApprovalPolicy({ require: ["deploy"] })] } } },
    });
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

    await f.injectCallbackQuery({ data: approve, message: request, from: STRANGER });
    await expect
      .poll(() => botMessages().map((m) => m.text))
      .toContain("Only the person who asked or an admin can answer this request.");
    expect(deployed).toEqual([]);

    await f.injectCallbackQuery({ data: approve, message: request });
    await expect.poll(() => botMessages().at(-1)?.text).toBe("result: deployed prod");
    expect(deployed).toEqual(["prod"]);
    expect(f.callsTo("answerCallbackQuery")).toHaveLength(2);
  });
});
