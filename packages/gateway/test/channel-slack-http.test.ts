import { type FakeSlack, startFakeSlack } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { ChannelOptionsError, createSlackChannel, type SlackChannel } from "../src/channels/index.js";
import { InboundCollector } from "./channel-inbound-collector.js";

let fake: FakeSlack | undefined;
let channel: SlackChannel | undefined;

afterEach(async () => {
  await channel?.stop();
  channel = undefined;
  await fake?.close();
  fake = undefined;
});

async function startHttp(f: FakeSlack): Promise<InboundCollector> {
  channel = createSlackChannel({
    accountId: "sl-http",
    mode: "http",
    botToken: f.botToken,
    signingSecret: f.signingSecret,
    slackApiUrl: f.apiUrl,
  });
  const inbox = new InboundCollector();
  await channel.start(inbox.sink);
  f.setEventsUrl(channel.eventsUrl ?? "");
  return inbox;
}

describe("Slack channel in HTTP mode", () => {
  it("receives signed events; a redelivery (retry headers) carries the same eventId", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const inbox = await startHttp(fake);
    const dm = await fake.injectDm({ text: "hello over http" });
    expect(dm).toMatchObject({ ok: true, status: 200 });
    expect(await inbox.byText("hello over http")).toMatchObject({ chatType: "dm", accountId: "sl-http" });

    const again = await fake.redeliver(dm.item.event_id);
    expect(again.ok).toBe(true);
    await inbox.waitForCount(2);
    expect(inbox.messages.map((m) => m.eventId)).toEqual([dm.item.event_id, dm.item.event_id]);
  });

  it("refuses a bad signature and a stale timestamp with 401 and delivers neither", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const inbox = await startHttp(fake);
    const forged = await fake.injectDm({ text: "forged", signing: { signature: "invalid" } });
    const stale = await fake.injectDm({
      text: "stale",
      signing: { timestampSec: Math.floor(Date.now() / 1000) - 600 },
    });
    const forgedCommand = await fake.injectSlashCommand({ command: "/agents", signing: { signature: "invalid" } });
    expect(forged).toMatchObject({ ok: false, status: 401 });
    expect(stale).toMatchObject({ ok: false, status: 401 });
    expect(forgedCommand).toMatchObject({ ok: false, status: 401 });

    await fake.injectDm({ text: "genuine" });
    await inbox.byText("genuine");
    expect(inbox.messages.map((m) => m.text)).toEqual(["genuine"]);
  });

  it("needs the signing secret in HTTP mode and the app token in Socket Mode", () => {
    expect(() => createSlackChannel({ accountId: "a", mode: "http", botToken: "xoxb-1" })).toThrow(ChannelOptionsError);
    expect(() => createSlackChannel({ accountId: "a", mode: "socket", botToken: "xoxb-1" })).toThrow(/appToken/);
  });
});
