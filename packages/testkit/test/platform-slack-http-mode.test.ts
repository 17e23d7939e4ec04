import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, LogLevel } from "@slack/bolt";
import { afterEach, describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";
import { type FakeSlack, startFakeSlack } from "../src/platforms/index.js";
import { echoDmsInThread } from "./slack-test-app.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

/** Starts a Bolt app in HTTP mode (stopped after the test) and points the fake's event delivery at it. */
async function startHttpApp(f: FakeSlack, setup: (a: App) => void = () => {}): Promise<App> {
  const a = cleanup.track(
    new App({
      token: f.botToken,
      signingSecret: f.signingSecret,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: f.apiUrl },
    }),
  );
  setup(a);
  echoDmsInThread(a);
  a.event("app_mention", async ({ event, say }) => {
    await say({ text: "mention echo", thread_ts: event.thread_ts ?? event.ts });
  });
  const server = (await a.start({ port: 0, host: "127.0.0.1" })) as Server;
  f.setEventsUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
  return a;
}

describe("@slack/bolt in HTTP mode against the fake Slack", () => {
  it("receives signed DM and app_mention events and replies in thread", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
    await startHttpApp(fake);

    const dm = await fake.injectDm({ text: "hello over http" });
    const mention = await fake.injectMention({ text: "hi", alsoAsMessage: false });
    expect(dm).toMatchObject({ ok: true, status: 200 });
    expect(mention).toMatchObject({ ok: true, status: 200 });
    await fake.waitForCall("chat.postMessage", 2);

    const [question, answer] = fake.conversation(fake.dmChannel());
    expect(answer).toMatchObject({ text: "dm echo: hello over http", thread_ts: question?.ts });
    const [mentionMessage, mentionReply] = fake.conversation(fake.channels.general);
    expect(mentionReply).toMatchObject({ text: "mention echo", thread_ts: mentionMessage?.ts });
  });

  it("answers 401 to a bad signature and to a stale timestamp, and runs no listener", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
    const texts: string[] = [];
    await startHttpApp(fake, (a) =>
      a.use(async ({ body, next }) => {
        texts.push(String((body as { event?: { text?: string } }).event?.text));
        await next();
      }),
    );

    const forged = await fake.injectDm({ text: "forged", signing: { signature: "invalid" } });
    const stale = await fake.injectDm({
      text: "stale",
      signing: { timestampSec: Math.floor(Date.now() / 1000) - 600 },
    });
    const genuine = await fake.injectDm({ text: "genuine" });

    expect(forged).toMatchObject({ ok: false, status: 401 });
    expect(stale).toMatchObject({ ok: false, status: 401 });
    expect(genuine).toMatchObject({ ok: true, status: 200 });
    expect(texts).toEqual(["genuine"]);
  });

  it("redelivers with x-slack-retry-num / x-slack-retry-reason and the same event_id", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
    const seen: Array<[string | undefined, number | undefined, string | undefined]> = [];
    await startHttpApp(fake, (a) =>
      a.use(async ({ body, context, next }) => {
        seen.push([(body as { event_id?: string }).event_id, context.retryNum, context.retryReason]);
        await next();
      }),
    );

    const first = await fake.injectDm({ text: "maybe twice" });
    await fake.redeliver(first.item.event_id);
    await fake.redeliver(first.item.event_id, "http_error");

    const id = first.item.event_id;
    expect(seen).toEqual([
      [id, undefined, undefined],
      [id, 1, "http_timeout"],
      [id, 2, "http_error"],
    ]);
  });

  it("posts slash commands as signed forms and records the app's ack body", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
    await startHttpApp(fake, (a) =>
      a.command("/ask", async ({ command, ack }) => {
        await ack(`you asked: ${command.text}`);
      }),
    );

    const delivery = await fake.injectSlashCommand({ command: "/ask", text: "why?" });

    expect(delivery).toMatchObject({ ok: true, status: 200 });
    expect(fake.callsTo("ack").at(-1)?.body).toBe("you asked: why?");
  });

  it("a 429 on chat.postMessage is retried by the WebClient and the reply lands once", async () => {
    const fake = cleanup.track(await startFakeSlack({ mode: "http" }));
    await startHttpApp(fake);
    fake.failNext({ method: "chat.postMessage", status: 429, retryAfterSeconds: 1 });

    await fake.injectDm({ text: "rate limited" });
    await fake.waitForCall("chat.postMessage", 2);

    expect(fake.callsTo("chat.postMessage").map((call) => call.status)).toEqual([429, 200]);
    const replies = fake.conversation(fake.dmChannel()).filter((m) => m.bot_id !== undefined);
    expect(replies.map((m) => m.text)).toEqual(["dm echo: rate limited"]);
  });
});
