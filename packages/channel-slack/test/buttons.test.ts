import { renderReplyChunks } from "@chorus/gateway";
import { InboundCollector, longMarkdownReply } from "@chorus/gateway-testing";
import { startFakeSlack, TestCleanup } from "@chorus/testkit";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackChannel, SLACK_CAPABILITIES } from "../src/index.js";
import { normaliseSlackButtonPress, slackBlocksOf } from "../src/slack-buttons.js";
import { sectionTexts } from "../src/slack-section-text.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

const self = { accountId: "sl", botUserId: "U0BOT0001" };

describe("Slack buttons as Block Kit", () => {
  it("puts the text in a section and one button per OutboundButton after it; none without buttons", () => {
    expect(slackBlocksOf("hi", undefined)).toBeUndefined();
    expect(slackBlocksOf("hi", [])).toBeUndefined();
    expect(
      slackBlocksOf("*Approval needed*", [
        { id: "/approve k3x9q2", label: "Approve" },
        { id: "/deny k3x9q2", label: "Deny" },
        { id: "/status", label: "x".repeat(80) },
      ]),
    ).toEqual([
      { type: "section", text: { type: "mrkdwn", text: "*Approval needed*" } },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            action_id: "chorus_button_0",
            text: { type: "plain_text", text: "Approve", emoji: true },
            value: "/approve k3x9q2",
            style: "primary",
          },
          {
            type: "button",
            action_id: "chorus_button_1",
            text: { type: "plain_text", text: "Deny", emoji: true },
            value: "/deny k3x9q2",
            style: "danger",
          },
          {
            type: "button",
            action_id: "chorus_button_2",
            text: { type: "plain_text", text: `${"x".repeat(74)}…`, emoji: true },
            value: "/status",
          },
        ],
      },
    ]);
  });

  it("splits a chunk longer than a section at line ends and keeps a cut code block a code block", () => {
    const code = Array.from({ length: 120 }, (_, i) => `line ${i} ${"y".repeat(20)}`).join("\n");
    const text = `${"intro ".repeat(300)}\n\`\`\`\n${code}\n\`\`\`\nafter`;
    const parts = sectionTexts(text);
    expect(parts.length).toBe(2);
    expect(parts[0]!.endsWith("\n```")).toBe(true);
    expect(parts[1]!.startsWith("```\n")).toBe(true);
    expect(parts[1]!.endsWith("```\nafter")).toBe(true);
  });

  it("never gives an empty or over-long section, and loses no text", () => {
    const line = fc.oneof(
      fc.constant("```"),
      fc.string({ maxLength: 400 }),
      fc.string({ minLength: 900, maxLength: 3200 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const text = lines.join("\n");
        const parts = sectionTexts(text, 1000);
        for (const part of parts) expect(part.length).toBeGreaterThan(0);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(1000);
        const strip = (s: string) => s.replaceAll("```", "").replaceAll(/\s/g, "");
        expect(strip(parts.join("\n"))).toBe(strip(text));
      }),
    );
  });
});

describe("Slack button press as an inbound message", () => {
  const body = {
    user: { id: "U0HUMAN001", username: "alice", name: "alice", team_id: "T0FAKE0001" },
    team: { id: "T0FAKE0001" },
    channel: { id: "C0GENERAL1" },
    message: { ts: "1700000000.000200" },
  };
  const action = { type: "button", value: "/approve k3x9q2", action_ts: "1700000001.000300" };

  it("is a message from the presser with the button's id as text, stable for a redelivery", () => {
    const press = normaliseSlackButtonPress(body, action, self, 5);
    expect(press).toEqual({
      channel: "slack",
      accountId: "sl",
      chatType: "group",
      chatId: "C0GENERAL1",
      guildId: "T0FAKE0001",
      messageId: "action:C0GENERAL1:1700000000.000200:U0HUMAN001:1700000001.000300",
      eventId: "action:C0GENERAL1:1700000000.000200:U0HUMAN001:1700000001.000300",
      sender: { id: "U0HUMAN001", name: "alice", isBot: false },
      text: "/approve k3x9q2",
      mentionsBot: true,
      replyToBot: true,
      attachments: [],
      receivedAt: 5,
    });
    expect(normaliseSlackButtonPress(body, action, self, 9)?.eventId).toBe(press?.eventId);
    expect(normaliseSlackButtonPress(body, { ...action, action_ts: "1700000002.000100" }, self, 9)?.eventId).not.toBe(
      press?.eventId,
    );
  });

  it("lands in the thread of a reply, not of a thread's parent; the app's own press and valueless ones are dropped", () => {
    const reply = { ...body, message: { ts: "1700000000.000200", thread_ts: "1700000000.000100" } };
    expect(normaliseSlackButtonPress(reply, action, self, 5)?.threadId).toBe("1700000000.000100");
    const parent = { ...body, message: { ts: "1700000000.000200", thread_ts: "1700000000.000200" } };
    expect(normaliseSlackButtonPress(parent, action, self, 5)).not.toHaveProperty("threadId");
    const dm = { ...body, channel: { id: "D0000001" } };
    expect(normaliseSlackButtonPress(dm, action, self, 5)?.chatType).toBe("dm");
    expect(normaliseSlackButtonPress({ ...body, user: { id: self.botUserId } }, action, self, 5)).toBeUndefined();
    expect(normaliseSlackButtonPress(body, { type: "button" }, self, 5)).toBeUndefined();
    expect(normaliseSlackButtonPress(body, { ...action, type: "static_select" }, self, 5)).toBeUndefined();
  });
});

describe("Slack channel: buttons through the WebClient and the fake's Block Kit checks", () => {
  const buttons = [
    { id: "/approve k3x9q2", label: "Approve" },
    { id: "/deny k3x9q2", label: "Deny" },
  ];

  async function startChannel(options: { now?: () => number; replyInThread?: boolean } = {}) {
    const f = cleanup.track(await startFakeSlack({ mode: "http" }));
    const c = cleanup.track(
      createSlackChannel({
        accountId: "sl",
        mode: "http",
        botToken: f.botToken,
        signingSecret: f.signingSecret,
        slackApiUrl: f.apiUrl,
        ...options,
      }),
    );
    await c.start(new InboundCollector().sink);
    return { f, c };
  }

  it("sends a full-size chunk with buttons as sections within Slack's limit, the chunk kept as the text", async () => {
    const { f, c } = await startChannel();
    const chunk = renderReplyChunks(longMarkdownReply(10_000), SLACK_CAPABILITIES).reduce((a, b) =>
      b.length > a.length ? b : a,
    );
    expect(chunk.length).toBeGreaterThan(3000);
    await c.send({ chatType: "group", chatId: f.channels.general }, { text: chunk, buttons });

    const sent = f.conversation(f.channels.general)[0]!;
    expect(sent.text).toBe(chunk);
    const blocks = sent.blocks as { type: string; text?: { text: string } }[];
    expect(blocks.map((b) => b.type)).toEqual(["section", "section", "actions"]);
    expect(blocks.every((b) => (b.text?.text.length ?? 0) <= 3000)).toBe(true);
  });

  it("an edit with buttons shows them; an edit without removes them, as Telegram's edit drops its keyboard", async () => {
    let now = 0;
    const { f, c } = await startChannel({ now: () => now });
    const sent = await c.send({ chatType: "group", chatId: f.channels.general }, { text: "asking" });
    expect(f.conversation(f.channels.general)[0]).not.toHaveProperty("blocks");
    await c.edit(sent, { text: "asking, with buttons", buttons });
    expect(f.conversation(f.channels.general)[0]!.blocks).toHaveLength(2);
    now += 1_000;
    await c.edit(sent, { text: "answered" });
    expect(f.conversation(f.channels.general)[0]).not.toHaveProperty("blocks");
    expect(f.conversation(f.channels.general)[0]!.text).toBe("answered");
  });

  it("never threads under or reacts to a button press's action id, which names no Slack message", async () => {
    const { f, c } = await startChannel({ replyInThread: true });
    const target = {
      chatType: "group" as const,
      chatId: f.channels.general,
      replyToMessageId: "action:C0GENERAL1:1700000000.000200:U0HUMAN001:1700000001.000300",
    };
    await c.typing(target);
    const sent = await c.send(target, { text: "done" });
    expect(sent).not.toHaveProperty("threadId");
    expect(f.callsTo("reactions.add")).toHaveLength(0);
    expect(f.conversation(f.channels.general)[0]).not.toHaveProperty("thread_ts");
  });
});
