import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type FakeSlack, type SlackFile, startFakeSlack } from "@chorus/testkit";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicBot, startAnthropicBot } from "./support/anthropic-bot-fixture.js";

// Issue #32 on Slack: `chorus start` in Socket Mode against the fake Slack (shared files served at `url_private` to
// the bot token only; uploads through files.uploadV2's three calls) and the fake Anthropic Messages API (which decodes
// the image blocks it gets). One bot start for the whole file.

const REPORT = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

let slack: FakeSlack;
let t: AnthropicBot;

beforeAll(async () => {
  slack = await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 });
  t = await startAnthropicBot({
    admins: [`  slack: [${JSON.stringify(slack.user.id)}]`],
    channels: [
      "  slack:",
      "    - accountId: main",
      `      botToken: ${JSON.stringify(slack.botToken)}`,
      `      appToken: ${JSON.stringify(slack.appToken)}`,
      `      slackApiUrl: ${JSON.stringify(slack.apiUrl)}`,
      "      dmPolicy: open",
    ],
    prepare: async (dataDir) => {
      await mkdir(join(dataDir, "workspaces", "assistant", "reports"), { recursive: true });
      await writeFile(join(dataDir, "workspaces", "assistant", "reports", "q3.pdf"), REPORT);
    },
  });
  await slack.waitForSocket(undefined, 30_000);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await slack?.close();
});

/** Everything the bot says in the DM now, one message a line. */
function botSaid(): string {
  return slack
    .conversation(slack.dmChannel())
    .filter((message) => message.bot_id !== undefined)
    .map((message) => message.text ?? "")
    .join("\n");
}

async function botSays(text: string): Promise<void> {
  await expect.poll(botSaid, { timeout: 20_000, interval: 50 }).toContain(text);
}

describe("media through chorus start on Slack", () => {
  it("an image shared in a DM is downloaded with the bot token and reaches the model pixel for pixel", async () => {
    const { anthropic } = t;
    const raw = Buffer.alloc(40 * 30 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 37) % 251;
    const picture = await sharp(raw, { raw: { width: 40, height: 30, channels: 3 } })
      .png()
      .toBuffer();
    anthropic.enqueue([{ type: "text", text: "A striped picture." }]);
    const delivery = await slack.injectDm({
      text: "what is this?",
      files: [{ bytes: new Uint8Array(picture), name: "stripes.png", mimetype: "image/png" }],
    });
    await botSays("A striped picture.");
    // Only the bot token gets the file at url_private; anyone else gets Slack's sign-in page.
    const [file] = (delivery.item.event as { files?: SlackFile[] }).files ?? [];
    const anonymous = await fetch(file?.url_private ?? "");
    expect(anonymous.headers.get("content-type")).toMatch(/^text\/html/);
    const images = anthropic.requests.at(-1)?.images ?? [];
    expect(images).toHaveLength(1);
    expect([images[0]?.width, images[0]?.height]).toEqual([40, 30]);
    const seen = await sharp(images[0]?.bytes ?? Buffer.alloc(0))
      .removeAlpha()
      .raw()
      .toBuffer();
    expect(seen.equals(raw)).toBe(true);
  }, 60_000);

  it("send_file uploads a workspace file into the DM through files.uploadV2, the caption as its comment", async () => {
    const { anthropic } = t;
    anthropic.enqueue([
      { type: "tool_call", name: "send_file", args: { path: "reports/q3.pdf", caption: "The Q3 report" } },
    ]);
    anthropic.enqueue([{ type: "text", text: "Sent the report." }]);
    await slack.injectDm({ text: "send me the Q3 report" });
    await botSays("Sent the report.");
    await expect.poll(() => slack.sentFiles().length, { timeout: 10_000, interval: 50 }).toBe(1);

    const [sent] = slack.sentFiles();
    expect(sent).toMatchObject({ name: "q3.pdf", channel: slack.dmChannel(), initialComment: "The Q3 report" });
    expect(Buffer.from(sent?.bytes ?? []).equals(REPORT)).toBe(true);
    expect(slack.callsTo("files.getUploadURLExternal")).toHaveLength(1);
    expect(slack.callsTo("files.completeUploadExternal")).toHaveLength(1);
    const shared = slack.conversation(slack.dmChannel()).find((message) => message.ts === sent?.ts);
    expect(shared).toMatchObject({ subtype: "file_share", text: "The Q3 report" });
  }, 60_000);
});
