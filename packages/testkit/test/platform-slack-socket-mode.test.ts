import { App, type Logger, LogLevel, SocketModeReceiver } from "@slack/bolt";
import { afterEach, describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";
import { type FakeSlack, startFakeSlack } from "../src/platforms/index.js";
import { echoDmsInThread } from "./slack-test-app.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

/** Keeps expected connection errors (dropped links) out of the test output. */
const quietLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

/** A Bolt app in Socket Mode that answers DMs and mentions in a thread; not started yet, stopped after the test. */
function threadReplyApp(f: FakeSlack): App {
  // A short client ping timeout also shortens the client's reconnect delay.
  const receiver = new SocketModeReceiver({
    appToken: f.appToken,
    clientPingTimeout: 300,
    logger: quietLogger,
    installerOptions: { clientOptions: { slackApiUrl: f.apiUrl } },
  });
  const a = cleanup.track(
    new App({
      token: f.botToken,
      receiver,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: f.apiUrl },
    }),
  );
  echoDmsInThread(a);
  a.event("app_mention", async ({ event, say }) => {
    await say({ text: `mention echo: ${event.text}`, thread_ts: event.thread_ts ?? event.ts });
  });
  return a;
}

describe("@slack/bolt in Socket Mode against the fake Slack", () => {
  it("receives a DM and an app_mention over the link, acks them, and replies in thread", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket", pingIntervalMs: 200 }));
    const a = threadReplyApp(fake);
    await a.start();
    expect(fake.callsTo("apps.connections.open")).toHaveLength(1);

    const dm = await fake.injectDm({ text: "hello in private" });
    const mention = await fake.injectMention({ text: "hello channel" });
    expect(dm.ok && mention.ok).toBe(true);
    await fake.waitForCall("chat.postMessage", 2);

    const [question, answer] = fake.conversation(fake.dmChannel());
    expect(answer).toMatchObject({ text: "dm echo: hello in private", thread_ts: question?.ts, bot_id: "B0FAKE0001" });
    const channel = fake.conversation(fake.channels.general);
    expect(channel.map((m) => m.text)).toEqual([
      "<@U0BOT0001> hello channel",
      "mention echo: <@U0BOT0001> hello channel",
    ]);
    expect(channel[1]?.thread_ts).toBe(channel[0]?.ts);
    // DM, app_mention and the mention's plain message event were all acked.
    expect(fake.callsTo("ack").length).toBeGreaterThanOrEqual(3);
  });

  it("redelivers an event with the same event_id and a retry_attempt Bolt exposes", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket" }));
    const a = threadReplyApp(fake);
    const seen: Array<[string | undefined, number | undefined]> = [];
    a.use(async ({ body, context, next }) => {
      seen.push([(body as { event_id?: string }).event_id, context.retryNum]);
      await next();
    });
    await a.start();

    const first = await fake.injectDm({ text: "once" });
    const again = await fake.redeliver(first.item.event_id);

    expect(again.ok).toBe(true);
    expect(seen).toEqual([
      [first.item.event_id, 0],
      [first.item.event_id, 1],
    ]);
  });

  it("reconnects after a disconnect message and keeps receiving", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket" }));
    const a = threadReplyApp(fake);
    await a.start();

    expect(fake.disconnectSocket()).toBe(1);
    await fake.waitForCall("apps.connections.open", 2);
    await fake.waitForSocket();
    await fake.injectDm({ text: "after the refresh" });
    await fake.waitForCall("chat.postMessage");
    expect(fake.conversation(fake.dmChannel()).at(-1)?.text).toBe("dm echo: after the refresh");
  });

  it("queues events while the link is down and delivers them after the client reconnects", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket" }));
    const a = threadReplyApp(fake);
    await a.start();

    expect(fake.dropSocket()).toBe(1);
    const delivery = fake.injectDm({ text: "sent while offline" });
    await fake.waitForCall("apps.connections.open", 2);

    expect((await delivery).ok).toBe(true);
    await fake.waitForCall("chat.postMessage");
    expect(fake.conversation(fake.dmChannel()).at(-1)?.text).toBe("dm echo: sent while offline");
  });

  it("delivers slash commands as envelopes; the ack and response_url answer are recorded", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket" }));
    const a = threadReplyApp(fake);
    a.command("/ask", async ({ command, ack, respond }) => {
      await ack();
      await respond(`answer to ${command.text}`);
    });
    await a.start();

    const delivery = await fake.injectSlashCommand({ command: "/ask", text: "life" });
    const response = await fake.waitForCall("response_url");

    expect(delivery.ok).toBe(true);
    expect(response.body).toMatchObject({ text: "answer to life" });
  });
});
