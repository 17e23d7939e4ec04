import { LogLevel, webApi } from "@slack/bolt";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "../src/platforms/index.js";

let fake: FakeSlack | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function client(f: FakeSlack, token = f.botToken): webApi.WebClient {
  return new webApi.WebClient(token, {
    slackApiUrl: f.apiUrl,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 0 },
  });
}

describe("fake Slack Web API", () => {
  it("posts, updates, reacts and deletes with Slack's answers and errors", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const web = client(fake);
    const posted = await web.chat.postMessage({ channel: fake.channels.general, text: "first" });
    expect(posted.ts).toMatch(/^\d{10}\.\d{6}$/);

    await web.chat.update({ channel: fake.channels.general, ts: posted.ts!, text: "first, edited" });
    await web.reactions.add({ channel: fake.channels.general, timestamp: posted.ts!, name: "eyes" });
    await expect(
      web.reactions.add({ channel: fake.channels.general, timestamp: posted.ts!, name: "eyes" }),
    ).rejects.toMatchObject({ data: { error: "already_reacted" } });
    await expect(web.chat.postMessage({ channel: "C0NOWHERE", text: "x" })).rejects.toMatchObject({
      data: { error: "channel_not_found" },
    });
    expect(fake.conversation(fake.channels.general).map((m) => m.text)).toEqual(["first, edited"]);

    await web.chat.delete({ channel: fake.channels.general, ts: posted.ts! });
    expect(fake.conversation(fake.channels.general)).toEqual([]);
  });

  it("streams a reply with chat.startStream / appendStream / stopStream", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const web = client(fake);
    // No app listens here; the DM is still stored, which is all this test needs.
    await fake.injectDm({ text: "question" });
    const dm = fake.dmChannel();
    const question = fake.conversation(dm)[0]!;

    const stream = await web.chat.startStream({ channel: dm, thread_ts: question.ts, markdown_text: "Hel" });
    await web.chat.appendStream({ channel: dm, ts: stream.ts!, markdown_text: "lo" });
    await web.chat.stopStream({ channel: dm, ts: stream.ts!, markdown_text: "!" });
    await expect(web.chat.appendStream({ channel: dm, ts: stream.ts!, markdown_text: "late" })).rejects.toMatchObject({
      data: { error: "message_not_in_streaming_state" },
    });

    expect(fake.conversation(dm).at(-1)).toMatchObject({ text: "Hello!", thread_ts: question.ts });
    await web.assistant.threads.setStatus({ channel_id: dm, thread_ts: question.ts, status: "is thinking…" });
    expect(fake.callsTo("assistant.threads.setStatus")[0]?.body).toMatchObject({ status: "is thinking…" });
  });

  it("users.info knows every user who wrote, also one the test made up, and no one else", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const web = client(fake);
    await fake.injectDm({ text: "hi", user: { id: "U0MADEUP1", name: "madeup", isBot: false } });
    const info = await web.users.info({ user: "U0MADEUP1" });
    expect(info.user).toMatchObject({ id: "U0MADEUP1", name: "madeup", is_bot: false });
    await expect(web.users.info({ user: "U0NOBODY" })).rejects.toMatchObject({ data: { error: "user_not_found" } });
  });

  it("checks tokens: unknown tokens fail, the app token only opens connections", async () => {
    fake = await startFakeSlack({ mode: "socket" });
    await expect(client(fake, "xoxb-nobody").auth.test()).rejects.toMatchObject({ data: { error: "invalid_auth" } });
    await expect(
      client(fake, fake.appToken).chat.postMessage({ channel: "C0GENERAL1", text: "x" }),
    ).rejects.toMatchObject({ data: { error: "not_allowed_token_type" } });
    const opened = await client(fake, fake.appToken).apps.connections.open();
    expect(opened.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/);
    expect(fake.calls.every((call) => JSON.stringify(call).includes("xoxb-") === false)).toBe(true);
  });
});
