import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, type BlockAction, type ButtonAction, LogLevel, webApi } from "@slack/bolt";
import { afterEach, describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";
import { type FakeSlack, startFakeSlack } from "../src/platforms/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

function client(f: FakeSlack): webApi.WebClient {
  return new webApi.WebClient(f.botToken, {
    slackApiUrl: f.apiUrl,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 0 },
  });
}

const button = (text: string, value: string, actionId: string) => ({
  type: "button" as const,
  text: { type: "plain_text" as const, text },
  value,
  action_id: actionId,
});

const approvalBlocks = [
  { type: "section" as const, text: { type: "mrkdwn" as const, text: "*Deploy?*" } },
  {
    type: "actions" as const,
    elements: [button("Approve", "/approve abc", "go"), button("Deny", "/deny abc", "stop")],
  },
];

/** A bolt app in the fake's mode, started; `setup` registers listeners first. */
async function startApp(f: FakeSlack, setup: (a: App) => void): Promise<App> {
  const a =
    f.mode === "socket"
      ? new App({
          token: f.botToken,
          appToken: f.appToken,
          socketMode: true,
          logLevel: LogLevel.ERROR,
          clientOptions: { slackApiUrl: f.apiUrl },
          installerOptions: { clientOptions: { slackApiUrl: f.apiUrl } },
        })
      : new App({
          token: f.botToken,
          signingSecret: f.signingSecret,
          logLevel: LogLevel.ERROR,
          clientOptions: { slackApiUrl: f.apiUrl },
        });
  cleanup.track(a);
  setup(a);
  if (f.mode === "socket") {
    await a.start();
  } else {
    const server = (await a.start({ port: 0, host: "127.0.0.1" })) as Server;
    f.setEventsUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
  }
  return a;
}

describe("fake Slack Block Kit", () => {
  it("keeps a message's blocks as sent (ids filled in), returns them, and keeps them across a text-only update", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
    const web = client(fake);
    const posted = await web.chat.postMessage({
      channel: fake.channels.general,
      text: "Deploy?",
      blocks: approvalBlocks,
    });

    const stored = fake.conversation(fake.channels.general)[0]!;
    expect(stored.text).toBe("Deploy?");
    expect(stored.blocks).toMatchObject(approvalBlocks);
    expect((stored.blocks as { block_id: string }[]).every((b) => b.block_id.length > 0)).toBe(true);
    expect(posted.message?.blocks).toEqual(stored.blocks);

    await web.chat.update({ channel: fake.channels.general, ts: posted.ts!, text: "Deploy? (edited)" });
    expect(fake.conversation(fake.channels.general)[0]!.blocks).toMatchObject(approvalBlocks);
    await web.chat.update({ channel: fake.channels.general, ts: posted.ts!, text: "Deployed.", blocks: [] });
    expect(fake.conversation(fake.channels.general)[0]).not.toHaveProperty("blocks");
  });

  it("refuses blocks past Slack's limits with invalid_blocks and a JSON pointer, storing nothing", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
    const web = client(fake);
    const general = fake.channels.general;
    const longLabel = [{ type: "actions" as const, elements: [button("x".repeat(76), "/approve abc", "go")] }];
    await expect(web.chat.postMessage({ channel: general, text: "t", blocks: longLabel })).rejects.toMatchObject({
      data: { error: "invalid_blocks", errors: [expect.stringContaining("/blocks/0/elements/0/text/text")] },
    });
    const tooMany = [
      { type: "actions" as const, elements: Array.from({ length: 26 }, (_, i) => button(`b${i}`, `v${i}`, `a${i}`)) },
    ];
    const longValue = [{ type: "actions" as const, elements: [button("Approve", "v".repeat(2001), "go")] }];
    const longSection = [{ type: "section" as const, text: { type: "mrkdwn" as const, text: "s".repeat(3001) } }];
    for (const blocks of [tooMany, longValue, longSection]) {
      await expect(web.chat.postMessage({ channel: general, text: "t", blocks })).rejects.toMatchObject({
        data: { error: "invalid_blocks" },
      });
    }
    // The limits themselves are fine.
    const atLimits = [
      { type: "actions" as const, elements: [button("x".repeat(75), "v".repeat(2000), "a".repeat(255))] },
    ];
    await web.chat.postMessage({ channel: general, text: "t", blocks: atLimits });
    expect(fake.conversation(general)).toHaveLength(1);
  });
});

describe.each(["socket", "http"] as const)("fake Slack button presses (%s mode, real bolt)", (mode) => {
  it("delivers a block_actions payload for the pressed button, as Slack does, and records the ack", async () => {
    const f = cleanup.track(await startFakeSlack({ mode }));
    const pressed: BlockAction<ButtonAction>[] = [];
    await startApp(f, (a) =>
      a.action<BlockAction<ButtonAction>>(
        { type: "block_actions", action_id: /^(go|stop)$/ },
        async ({ ack, body }) => {
          await ack();
          pressed.push(body);
        },
      ),
    );
    const posted = await client(f).chat.postMessage({
      channel: f.channels.general,
      text: "Deploy?",
      blocks: approvalBlocks,
    });
    const message = f.conversation(f.channels.general).find((m) => m.ts === posted.ts)!;

    const delivery = await f.injectBlockAction({ message, value: "/deny abc" });

    expect(delivery.ok).toBe(true);
    expect(pressed).toHaveLength(1);
    const body = pressed[0]!;
    expect(body).toMatchObject({
      type: "block_actions",
      user: { id: f.user.id, username: f.user.name, team_id: f.teamId },
      channel: { id: f.channels.general, name: "general" },
      container: { type: "message", message_ts: posted.ts, channel_id: f.channels.general },
      message: { ts: posted.ts, text: "Deploy?", blocks: message.blocks },
      actions: [{ type: "button", action_id: "stop", value: "/deny abc", text: { text: "Deny" } }],
    });
    expect(body.actions[0]!.block_id).toBe((message.blocks as { block_id: string }[])[1]!.block_id);
    expect(body.actions[0]!.action_ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(body.trigger_id).toBeTruthy();
    expect(body.response_url).toContain("/respond/");
    expect(f.callsTo("ack").filter((call) => call.params.type === "interactive")).toHaveLength(1);
    expect(() => f.injectBlockAction({ message, actionId: "nope" })).toThrow(TypeError);
  });
});

describe("fake Slack button presses nobody handles", () => {
  it("gives up on an unacked interactive envelope after 3 s, as Slack does, without redelivering it", async () => {
    const f = cleanup.track(await startFakeSlack({ mode: "socket" }));
    await startApp(f, () => {});
    const posted = await client(f).chat.postMessage({
      channel: f.channels.general,
      text: "Deploy?",
      blocks: approvalBlocks,
    });
    const message = f.conversation(f.channels.general).find((m) => m.ts === posted.ts)!;

    const started = Date.now();
    const delivery = await f.injectBlockAction({ message, actionId: "go" });

    expect(delivery).toMatchObject({ ok: false, reason: "not acked within 3000 ms" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(f.callsTo("ack")).toHaveLength(0);
  });
});
