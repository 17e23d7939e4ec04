import { webApi } from "@slack/bolt";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeSlack, type SlackFile, startFakeSlack } from "../src/platforms/index.js";

// Issue #32, files out: the fake Slack takes `files.uploadV2` as @slack/web-api makes it — files.getUploadURLExternal,
// the bytes POSTed to the upload URL, files.completeUploadExternal with channel_id, initial_comment and thread_ts —
// and shares the file in its channel as a message, at once or (like Slack, asynchronously) after a delay.

let fake: FakeSlack | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const PDF = Buffer.from("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n");

type Shares = Record<string, Record<string, { ts: string; thread_ts?: string }[]>>;
interface Completion {
  files?: { files?: (SlackFile & { shares?: Shares; title?: string })[] }[];
}

function clientOf(f: FakeSlack): InstanceType<typeof webApi.WebClient> {
  return new webApi.WebClient(f.botToken, { slackApiUrl: f.apiUrl, retryConfig: { retries: 0 } });
}

describe("files an app uploads to the fake Slack", () => {
  it("go through the three calls of files.uploadV2 and land in the channel with the comment", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const result = (await clientOf(fake).files.uploadV2({
      channel_id: fake.channels.general,
      file: PDF,
      filename: "report.pdf",
      initial_comment: "the report",
    })) as Completion;

    expect(fake.calls.map((call) => call.method)).toEqual([
      "files.getUploadURLExternal",
      "upload_url",
      "files.completeUploadExternal",
    ]);
    expect(fake.callsTo("files.getUploadURLExternal")[0]?.body).toMatchObject({
      filename: "report.pdf",
      length: String(PDF.byteLength),
    });
    const file = result.files?.[0]?.files?.[0];
    expect(file).toMatchObject({ name: "report.pdf", title: "report.pdf", mimetype: "application/pdf" });
    const message = fake.conversation(fake.channels.general).at(-1);
    expect(message).toMatchObject({ text: "the report", subtype: "file_share", files: [{ id: file?.id }] });
    expect(file?.shares?.public?.[fake.channels.general]?.[0]?.ts).toBe(message?.ts);
    const [sent] = fake.sentFiles();
    expect(sent).toMatchObject({ name: "report.pdf", channel: fake.channels.general, ts: message?.ts });
    expect(sent?.bytes).toEqual(new Uint8Array(PDF));
    const served = await fetch(file?.url_private ?? "", { headers: { authorization: `Bearer ${fake.botToken}` } });
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PDF);
  });

  it("puts a file in a DM's thread, shared privately", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const dm = fake.dmChannel();
    const asked = await fake.injectDm({ text: "send it here" });
    const askedTs = (asked.item.event as { ts: string }).ts;
    const result = (await clientOf(fake).files.uploadV2({
      channel_id: dm,
      thread_ts: askedTs,
      file: PDF,
      filename: "report.pdf",
    })) as Completion;
    expect(fake.callsTo("files.completeUploadExternal")[0]?.body).toMatchObject({ channel_id: dm, thread_ts: askedTs });
    const message = fake.conversation(dm).at(-1);
    expect(message).toMatchObject({ thread_ts: askedTs, files: [{ name: "report.pdf" }] });
    const share = result.files?.[0]?.files?.[0]?.shares?.private?.[dm]?.[0];
    expect(share).toMatchObject({ ts: message?.ts, thread_ts: askedTs });
  });

  it("answers the completion before sharing when told to, as Slack often does; files.info shows the share", async () => {
    fake = await startFakeSlack({ mode: "http", fileShareDelayMs: 200 });
    const client = clientOf(fake);
    const result = (await client.files.uploadV2({
      channel_id: fake.channels.general,
      file: PDF,
      filename: "report.pdf",
    })) as Completion;
    const file = result.files?.[0]?.files?.[0];
    expect(file?.shares).toEqual({});
    expect(fake.conversation(fake.channels.general)).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 300));
    const info = (await client.files.info({ file: file?.id ?? "" })) as unknown as { file?: { shares?: Shares } };
    const ts = info.file?.shares?.public?.[fake.channels.general]?.[0]?.ts;
    expect(ts).toBe(fake.conversation(fake.channels.general).at(-1)?.ts);
  });

  it("refuses an unknown channel, and a completion whose bytes never arrived", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const client = clientOf(fake);
    const unknown = await client.files
      .uploadV2({ channel_id: "C0NOWHERE", file: PDF, filename: "report.pdf" })
      .catch((error: unknown) => error);
    expect((unknown as { data?: { error?: string } }).data?.error).toBe("channel_not_found");

    const issued = await client.files.getUploadURLExternal({ filename: "never.pdf", length: 10 });
    const incomplete = await client.files
      .completeUploadExternal({ files: [{ id: issued.file_id ?? "" }], channel_id: fake.channels.general })
      .catch((error: unknown) => error);
    expect((incomplete as { data?: { error?: string } }).data?.error).toBe("file_not_found");
    expect(fake.conversation(fake.channels.general)).toEqual([]);
  });
});
