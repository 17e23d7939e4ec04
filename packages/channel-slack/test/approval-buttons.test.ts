import { deployProbe, NOT_YOURS_TO_ANSWER, startChannelGateway, tryDeploy } from "@chorus/gateway-testing";
import { SLACK_STRANGER, type SlackMessage, startFakeSlack, TestCleanup } from "@chorus/testkit";
import { createApprovalPolicy } from "@chorus/tools";
import { afterEach, describe, expect, it } from "vitest";
import { slackChannelOn } from "./slack-channel-on.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

interface ShownButton {
  readonly type: string;
  readonly action_id: string;
  readonly value: string;
  readonly style?: string;
  readonly text: { readonly text: string };
}

/** The buttons of a message's actions block, as Slack stores them. */
function buttonsOf(message: SlackMessage): ShownButton[] {
  const blocks = (message.blocks ?? []) as { type: string; elements?: ShownButton[] }[];
  return blocks.filter((block) => block.type === "actions").flatMap((block) => block.elements ?? []);
}

describe.each(["socket", "http"] as const)("Slack approval buttons (%s mode: bolt ↔ fake Slack ↔ Gateway)", (mode) => {
  it("shows Approve/Deny buttons under the request; a stranger's press is refused, the requester's runs the call", async () => {
    const f = cleanup.track(await startFakeSlack({ mode, pingIntervalMs: 1_000 }));
    const { tool: deploy, deployed } = deployProbe();
    const channel = slackChannelOn(f);
    cleanup.track(
      await startChannelGateway({
        channels: [channel],
        config: { channels: [{ channel: "slack", dmPolicy: "open", groupPolicy: "open", admins: [f.user.id] }] },
        script: tryDeploy,
        gateway: { agents: { main: { tools: [deploy], policies: [createApprovalPolicy({ require: ["deploy"] })] } } },
      }),
    );
    if (mode === "socket") await f.waitForSocket();
    else f.setEventsUrl(channel.eventsUrl ?? "");
    const botMessages = (): SlackMessage[] => f.conversation(f.channels.general).filter((m) => m.bot_id !== undefined);

    await f.injectMention({ text: "ship it" });
    await expect.poll(() => botMessages().length).toBe(1);
    const request = botMessages()[0]!;
    // The text stays the notification fallback; Slack shows the blocks: the mrkdwn text, then the buttons.
    expect(request.text).toContain("*Approval needed*: the agent wants to run `deploy`");
    expect(request.text).toContain("Use the buttons below");
    expect(request.blocks).toMatchObject([{ type: "section", text: { type: "mrkdwn", text: request.text } }, {}]);
    const buttons = buttonsOf(request);
    expect(buttons.map((b) => [b.text.text, b.style])).toEqual([
      ["Approve", "primary"],
      ["Deny", "danger"],
    ]);
    const approve = buttons[0]!;
    expect(approve.value).toMatch(/^\/approve [a-z0-9]{6}$/);
    expect(buttons[1]!.value).toBe(approve.value.replace("/approve", "/deny"));

    const refused = await f.injectBlockAction({ message: request, actionId: approve.action_id, user: SLACK_STRANGER });
    expect(refused.ok).toBe(true);
    await expect.poll(() => botMessages().map((m) => m.text)).toContain(NOT_YOURS_TO_ANSWER);
    expect(deployed).toEqual([]);

    const approved = await f.injectBlockAction({ message: request, actionId: approve.action_id });
    expect(approved.ok).toBe(true);
    await expect.poll(() => botMessages().at(-1)?.text).toBe("result: deployed prod");
    expect(deployed).toEqual(["prod"]);
    // Both presses were acked over Slack's own path (envelope ack / HTTP 200), and the refusal carries no buttons.
    expect(f.callsTo("ack").filter((call) => call.params.type === "interactive")).toHaveLength(2);
    expect(botMessages().find((m) => m.text.startsWith("Only the person"))).not.toHaveProperty("blocks");
    // The request now says how it ended, and its buttons are gone: nothing left to press.
    await expect.poll(() => botMessages()[0]?.text).toMatch(/\n\*Approved\* by .+\.$/);
    expect(botMessages()[0]).not.toHaveProperty("blocks");
  });
});
