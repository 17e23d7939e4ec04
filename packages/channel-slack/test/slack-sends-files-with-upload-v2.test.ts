import { ChannelError, type OutboundFile } from "@chorus/channel";
import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeSlack, type FakeSlackOptions, type SlackFile, startFakeSlack, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { SLACK_CAPABILITIES, SLACK_MAX_UPLOAD_BYTES, type SlackChannel } from "../src/index.js";
import { type SlackTestOptions, slackChannelOn } from "./slack-channel-on.js";

// Issue #32, files out on Slack: sendFile uploads through the WebClient's files.uploadV2 (getUploadURLExternal, the
// bytes to the upload URL, completeUploadExternal with channel_id, initial_comment and thread_ts) and answers with the
// ts of the message that carries the file, also when Slack shares it only after answering; over 1 GB is refused first.

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

async function startFake(options: Partial<FakeSlackOptions> = {}): Promise<FakeSlack> {
  return cleanup.track(await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000, ...options }));
}

async function startChannel(f: FakeSlack, options: SlackTestOptions = {}): Promise<SlackChannel> {
  const channel = cleanup.track(slackChannelOn(f, { accountId: "sl-main", ...options }));
  await channel.start(new InboundCollector().sink);
  return channel;
}

const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n");
const pdf: OutboundFile = { bytes: PDF, name: "report.pdf", mimeType: "application/pdf", asPhoto: false };

function filesOf(f: FakeSlack, channel: string, ts: string): SlackFile[] {
  return (f.conversation(channel).find((m) => m.ts === ts)?.files ?? []) as SlackFile[];
}

describe("Slack channel: sending files", () => {
  it("says how large a file it uploads", () => {
    expect(SLACK_CAPABILITIES.maxUploadBytes).toBe(SLACK_MAX_UPLOAD_BYTES);
  });

  it("uploads a PDF with files.uploadV2, the caption as its comment; the message carries it, byte for byte", async () => {
    const fake = await startFake();
    const c = await startChannel(fake);
    const general = fake.channels.general;
    const sent = await c.sendFile({ chatType: "group", chatId: general }, { ...pdf, caption: "the report <v2>" });

    expect(fake.calls.map((call) => call.method).filter((m) => m.startsWith("files.") || m === "upload_url")).toEqual([
      "files.getUploadURLExternal",
      "upload_url",
      "files.completeUploadExternal",
    ]);
    const message = fake.conversation(general).find((m) => m.ts === sent.messageId);
    // Plain text: `<` and `>` are escaped, so Slack shows them rather than reading a link.
    expect(message?.text).toBe("the report &lt;v2&gt;");
    expect(filesOf(fake, general, sent.messageId)).toEqual([
      expect.objectContaining({ name: "report.pdf", mimetype: "application/pdf", size: PDF.byteLength }),
    ]);
    const [record] = fake.sentFiles();
    expect(record).toMatchObject({ name: "report.pdf", channel: general, ts: sent.messageId });
    expect(record?.bytes).toEqual(PDF);
  });

  it("puts the file in the target's thread", async () => {
    const fake = await startFake();
    const c = await startChannel(fake);
    const general = fake.channels.general;
    const question = await fake.injectMention({ text: "the chart please", alsoAsMessage: false });
    const threadTs = String(question.item.event.ts);
    const sent = await c.sendFile(
      { chatType: "group", chatId: general, threadId: threadTs },
      { bytes: PDF, name: "chart.png", mimeType: "image/png", asPhoto: true },
    );

    expect(sent).toMatchObject({ chatId: general, threadId: threadTs });
    expect(fake.callsTo("files.completeUploadExternal")[0]?.body).toMatchObject({
      channel_id: general,
      thread_ts: threadTs,
    });
    expect(fake.conversation(general).find((m) => m.ts === sent.messageId)?.thread_ts).toBe(threadTs);
  });

  it("finds the message's ts through files.info when Slack shares the file after answering", async () => {
    const fake = await startFake({ fileShareDelayMs: 150 });
    const c = await startChannel(fake);
    const dm = fake.dmChannel();
    const sent = await c.sendFile({ chatType: "dm", chatId: dm }, pdf);

    expect(fake.callsTo("files.info").length).toBeGreaterThan(0);
    expect(sent.messageId).toBe(fake.conversation(dm).at(-1)?.ts);
    expect(filesOf(fake, dm, sent.messageId)[0]?.name).toBe("report.pdf");
  });

  it("refuses a file over 1 GB with too-long before any request", async () => {
    const fake = await startFake();
    const c = await startChannel(fake);
    // A typed array that says it is over the limit, without holding a gigabyte in the test.
    const bytes = new Uint8Array(8);
    Object.defineProperty(bytes, "byteLength", { value: SLACK_MAX_UPLOAD_BYTES + 1 });
    const refused = await c
      .sendFile({ chatType: "group", chatId: fake.channels.general }, { ...pdf, bytes })
      .catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(ChannelError);
    expect(refused).toMatchObject({ kind: "too-long" });
    expect(fake.calls.filter((call) => call.method.startsWith("files.") || call.method === "upload_url")).toEqual([]);
  });

  it("maps Slack's refusals: an unknown channel, a server error", async () => {
    const fake = await startFake();
    const c = await startChannel(fake, { webApiRetryDelayMs: 10 });
    await expect(c.sendFile({ chatType: "group", chatId: "C0NOWHERE" }, pdf)).rejects.toMatchObject({
      kind: "not-found",
    });
    fake.failNext({ method: "files.getUploadURLExternal", status: 502, times: 3 });
    await expect(c.sendFile({ chatType: "group", chatId: fake.channels.general }, pdf)).rejects.toMatchObject({
      kind: "network",
    });
    expect(fake.conversation(fake.channels.general)).toEqual([]);
  });
});
