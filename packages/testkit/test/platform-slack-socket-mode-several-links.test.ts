import { App, type Logger, LogLevel, SocketModeReceiver } from "@slack/bolt";
import { afterEach, describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";
import { type FakeSlack, startFakeSlack } from "../src/platforms/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

const quietLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

interface Seen {
  readonly eventId: string;
  readonly retryNum: number | undefined;
}

/** A Bolt app in Socket Mode (one link) on the fake's first app, recording the events it receives. */
async function recordingApp(f: FakeSlack): Promise<Seen[]> {
  const seen: Seen[] = [];
  const receiver = new SocketModeReceiver({
    appToken: f.appToken,
    logger: quietLogger,
    installerOptions: { clientOptions: { slackApiUrl: f.apiUrl } },
  });
  const app = cleanup.track(
    new App({ token: f.botToken, receiver, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: f.apiUrl } }),
  );
  app.use(async ({ body, context, next }) => {
    seen.push({ eventId: (body as { event_id: string }).event_id, retryNum: context.retryNum });
    await next();
  });
  await app.start();
  return seen;
}

describe("the fake Slack with several Socket Mode links for one app (one per instance of a clustered app)", () => {
  it("spreads envelopes over the open links, each delivered once and acked", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket" }));
    const first = await recordingApp(fake);
    const second = await recordingApp(fake);
    await fake.waitForSocket(undefined, 5_000, 2);
    expect(fake.socketLinks()).toBe(2);

    const deliveries = [];
    for (let i = 0; i < 6; i++) deliveries.push(await fake.injectDm({ text: `message ${i}` }));

    expect(deliveries.every((delivery) => delivery.ok)).toBe(true);
    expect(first).toHaveLength(3);
    expect(second).toHaveLength(3);
    const ids = [...first, ...second].map((seen) => seen.eventId).sort();
    expect(ids).toEqual(deliveries.map((delivery) => delivery.item.event_id).sort());
    expect(fake.callsTo("ack")).toHaveLength(6);
  });

  it("sends an envelope whose ack was lost again on the other link, with retry_attempt 1", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket", eventAckTimeoutMs: 300 }));
    const first = await recordingApp(fake);
    const second = await recordingApp(fake);
    await fake.waitForSocket(undefined, 5_000, 2);

    fake.loseAcks(1);
    const delivery = await fake.injectDm({ text: "ack lost" });

    expect(delivery.ok).toBe(true);
    const all = [...first, ...second];
    expect(all).toEqual([
      { eventId: delivery.item.event_id, retryNum: 0 },
      { eventId: delivery.item.event_id, retryNum: 1 },
    ]);
    // One on each link: the retry went to the link that had not received it.
    expect([first.length, second.length]).toEqual([1, 1]);
    const [lost] = fake.callsTo("lost-ack");
    const [acked] = fake.callsTo("ack");
    expect(lost?.params.envelope_id).toBe(acked?.params.envelope_id);
    expect(new Set([lost?.params.link, acked?.params.link])).toEqual(new Set(["1", "2"]));
  });

  it("gives an event up after 3 retries nobody acked", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "socket", eventAckTimeoutMs: 100 }));
    const seen = await recordingApp(fake);

    fake.loseAcks(4);
    const delivery = await fake.injectDm({ text: "never acked" });

    expect(delivery).toMatchObject({ ok: false, reason: "not acked after 3 retries" });
    expect(seen.map((event) => event.retryNum)).toEqual([0, 1, 2, 3]);
  });
});
