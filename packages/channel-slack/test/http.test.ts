import { ChannelOptionsError, type InboundMessage, MessageNotStoredError } from "@chorus/gateway";
import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeSlack, startFakeSlack, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackChannel } from "../src/index.js";
import { slackChannelOn } from "./slack-channel-on.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

/** Starts an HTTP-mode channel and points the fake's event delivery at it. */
async function startHttp(f: FakeSlack): Promise<InboundCollector> {
  const channel = cleanup.track(slackChannelOn(f, { accountId: "sl-http" }));
  const inbox = new InboundCollector();
  await channel.start(inbox.sink);
  f.setEventsUrl(channel.eventsUrl ?? "");
  return inbox;
}

describe("Slack channel in HTTP mode", () => {
  it("receives signed events; a redelivery (retry headers) carries the same eventId", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
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
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
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

  it("answers 500 to an event the gateway could not store, so that Slack sends it again", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
    const channel = cleanup.track(slackChannelOn(fake, { accountId: "sl-http" }));
    const stored: InboundMessage[] = [];
    let storeIsDown = true;
    await channel.start(async (message) => {
      if (storeIsDown) throw new MessageNotStoredError(new Error("database unreachable"));
      stored.push(message);
    });
    fake.setEventsUrl(channel.eventsUrl ?? "");
    const refused = await fake.injectDm({ text: "while the store is down" });
    expect(refused).toMatchObject({ ok: false, status: 500 });
    expect(stored).toEqual([]);

    storeIsDown = false;
    const again = await fake.redeliver(refused.item.event_id, "http_error");
    expect(again).toMatchObject({ ok: true, status: 200 });
    expect(stored.map((message) => message.text)).toEqual(["while the store is down"]);
  });

  it("needs the signing secret in HTTP mode and the app token in Socket Mode", () => {
    expect(() => createSlackChannel({ accountId: "a", mode: "http", botToken: "xoxb-1" })).toThrow(ChannelOptionsError);
    expect(() => createSlackChannel({ accountId: "a", mode: "socket", botToken: "xoxb-1" })).toThrow(/appToken/);
  });
});
