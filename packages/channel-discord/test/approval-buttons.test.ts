import {
  deployProbe,
  InboundCollector,
  NOT_YOURS_TO_ANSWER,
  startChannelGateway,
  tryDeploy,
} from "@chorus/gateway-testing";
import { DISCORD_STRANGER, type DiscordMessage, startFakeDiscord, TestCleanup } from "@chorus/testkit";
import { createApprovalPolicy } from "@chorus/tools";
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

interface Button {
  type: number;
  style: number;
  label: string;
  custom_id: string;
}

function buttonsOf(message: DiscordMessage): Button[] {
  return (message.components as Array<{ type: number; components: Button[] }>).flatMap((row) => row.components);
}

describe("Discord approval buttons (discord.js ↔ fake Discord ↔ Gateway)", () => {
  it("shows Approve/Deny buttons under the request; a stranger's press is refused, the requester's runs the call", async () => {
    const f = cleanup.track(await startFakeDiscord());
    const { tool: deploy, deployed } = deployProbe();
    cleanup.track(
      await startChannelGateway({
        channels: [createDiscordChannel({ accountId: "dc", token: f.token, restApi: f.restApi })],
        config: { channels: [{ channel: "discord", dmPolicy: "open", groupPolicy: "open", admins: [f.user.id] }] },
        script: tryDeploy,
        gateway: { agents: { main: { tools: [deploy], policies: [createApprovalPolicy({ require: ["deploy"] })] } } },
      }),
    );
    const botId = f.bots[0]!.user.id;
    const botMessages = (): DiscordMessage[] => f.conversation(f.guild.general.id).filter((m) => m.author.id === botId);

    await f.injectMention({ content: "ship it" });
    await expect.poll(() => botMessages().length, { timeout: 5_000 }).toBe(1);
    const request = botMessages()[0]!;
    expect(request.content).toContain("**Approval needed**: the agent wants to run `deploy`");
    expect(request.content).toContain("Use the buttons below");
    const buttons = buttonsOf(request);
    expect(buttons.map((button) => button.label)).toEqual(["Approve", "Deny"]);
    expect(buttons.map((button) => button.style)).toEqual([1, 2]);
    const approve = buttons[0]!.custom_id;
    expect(approve).toMatch(/^\/approve [a-z0-9]{6}$/);
    expect(buttons[1]!.custom_id).toBe(approve.replace("/approve", "/deny"));

    const strangerPress = await f.injectButtonPress({ customId: approve, message: request, user: DISCORD_STRANGER });
    expect(strangerPress.ok).toBe(true);
    await expect.poll(() => botMessages().map((m) => m.content), { timeout: 5_000 }).toContain(NOT_YOURS_TO_ANSWER);
    expect(deployed).toEqual([]);

    const ownPress = await f.injectButtonPress({ customId: approve, message: request });
    await expect.poll(() => botMessages().at(-1)?.content, { timeout: 5_000 }).toBe("result: deployed prod");
    expect(deployed).toEqual(["prod"]);
    // The request now says how it ended, and its buttons are gone: nothing left to press.
    await expect.poll(() => botMessages()[0]?.content, { timeout: 5_000 }).toMatch(/\n\*\*Approved\*\* by .+\.$/);
    expect(botMessages()[0]?.components ?? []).toEqual([]);

    // Both presses were acknowledged with DEFERRED_UPDATE_MESSAGE, so Discord never says "This interaction failed".
    await expect.poll(() => f.callsTo("createInteractionResponse").length, { timeout: 5_000 }).toBe(2);
    expect(f.callsTo("createInteractionResponse").map((call) => call.body)).toEqual([{ type: 6 }, { type: 6 }]);
    expect([strangerPress.item.callbackType, ownPress.item.callbackType]).toEqual([6, 6]);
  });

  it("turns a press in a thread into a message in that thread; leaves out a button id Discord would refuse", async () => {
    const f = cleanup.track(await startFakeDiscord());
    const inbound = new InboundCollector();
    const channel = cleanup.track(
      createDiscordChannel({ accountId: "dc", token: f.token, restApi: f.restApi, registerCommands: false }),
    );
    await channel.start(inbound.sink);
    const { general, thread } = f.guild;

    const tooLong = `/approve ${"x".repeat(100)}`;
    const sent = await channel.send(
      { chatType: "group", chatId: general.id, threadId: thread.id },
      {
        text: "Pick one",
        buttons: [
          { id: "/approve abc123", label: "Approve" },
          { id: tooLong, label: "Too long" },
          { id: "/deny abc123", label: "Deny" },
        ],
      },
    );
    const message = f.conversation(thread.id).find((m) => m.id === sent.messageId)!;
    expect(buttonsOf(message).map((button) => button.custom_id)).toEqual(["/approve abc123", "/deny abc123"]);

    const press = await f.injectButtonPress({ customId: "/deny abc123", message });
    const received = await inbound.byText("/deny abc123");
    expect(received).toMatchObject({
      channel: "discord",
      accountId: "dc",
      chatType: "group",
      chatId: general.id,
      threadId: thread.id,
      guildId: f.guild.id,
      messageId: `interaction:${press.item.id}`,
      eventId: press.item.id,
      sender: { id: f.user.id, isBot: false },
      mentionsBot: true,
      replyToBot: true,
    });
    expect(received.interaction).toBeUndefined();
    await expect.poll(() => press.item.callbackType, { timeout: 5_000 }).toBe(6);

    // Another bot's press is flagged like another bot's message, so the inbound policy ignores both alike.
    const botPress = await f.injectButtonPress({ customId: "/approve abc123", message, user: f.otherBot });
    const fromBot = await inbound.waitFor((m) => m.eventId === botPress.item.id);
    expect(fromBot.sender).toMatchObject({ id: f.otherBot.id, isBot: true });
  });
});
