import { type DiscordAttachment, type FakeDiscord, startFakeDiscord } from "@chorus/testkit";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicBot, startAnthropicBot } from "./support/anthropic-bot-fixture.js";

// Issue #32 on Discord: `chorus start` against the fake Discord (attachments behind signed CDN links that expire, and
// `POST /attachments/refresh-urls` to renew them; multipart uploads with `nonce` + `enforce_nonce`) and the fake
// Anthropic Messages API (which decodes the image and document blocks it gets). One bot start for the whole file.

/** How long an attachment's link works on the fake: 2-3 s after it is issued (its `ex` is in whole seconds). */
const LINK_TTL_MS = 5_000;

let discord: FakeDiscord;
let t: AnthropicBot;

beforeAll(async () => {
  discord = await startFakeDiscord({ attachmentUrlTtlMs: LINK_TTL_MS, heartbeatIntervalMs: 1_000 });
  t = await startAnthropicBot({
    admins: [`  discord: [${JSON.stringify(discord.user.id)}]`],
    channels: [
      "  discord:",
      "    - accountId: main",
      `      token: ${JSON.stringify(discord.token)}`,
      `      restApi: ${JSON.stringify(discord.restApi)}`,
      "      dmPolicy: open",
      // Each message in its own turn: a message that arrives during a turn is read when the next one starts.
      "      queueMode: followup",
    ],
  });
  await discord.waitForSession(undefined, 30_000);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await discord?.close();
});

/** Everything the bot says in the DM now, one message a line. */
function botSaid(): string {
  const bot = discord.bots[0]?.user.id;
  return discord
    .conversation(discord.dmChannel().id)
    .filter((message) => message.author.id === bot)
    .map((message) => message.content)
    .join("\n");
}

/** The bot's messages in the DM that carry files. */
function botFileMessages() {
  const bot = discord.bots[0]?.user.id;
  return discord
    .conversation(discord.dmChannel().id)
    .filter((message) => message.author.id === bot && message.attachments.length > 0);
}

/** Waits for the bot to have said `text` in the DM. */
async function botSays(text: string): Promise<void> {
  await expect.poll(botSaid, { timeout: 20_000, interval: 50 }).toContain(text);
}

/** A PNG of deterministic noise, so equal pixels mean the same picture. */
async function noisePng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 0x2545f491;
  for (let i = 0; i < raw.length; i++) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    raw[i] = seed >>> 24;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function pixels(image: Uint8Array): Promise<Buffer> {
  return sharp(Buffer.from(image)).removeAlpha().raw().toBuffer();
}

describe("media through chorus start on Discord", () => {
  it("an image whose CDN link expired before the turn read it is renewed, and reaches the model pixel for pixel", async () => {
    const { anthropic } = t;
    // The first message's turn holds its model call, so the second message waits for its own turn.
    anthropic.enqueue([
      { type: "stall", ms: 60_000 },
      { type: "text", text: "One moment." },
    ]);
    anthropic.enqueue([{ type: "text", text: "A noisy picture." }]);
    await discord.injectDm({ content: "look at what comes next" });
    await expect.poll(() => anthropic.requests.length, { timeout: 15_000, interval: 20 }).toBe(1);

    const picture = await noisePng(96, 64);
    const delivery = await discord.injectDm({
      content: "what is this?",
      attachments: [{ bytes: new Uint8Array(picture), filename: "noise.png", contentType: "image/png" }],
    });
    const [attachment] = delivery.item.attachments as DiscordAttachment[];
    // Past the link's expiry: the CDN no longer serves it.
    await new Promise((resolve) => setTimeout(resolve, LINK_TTL_MS + 1_100));
    expect((await fetch(attachment?.url ?? "")).status).toBe(404);
    expect(discord.callsTo("refreshAttachmentUrls")).toHaveLength(0);

    anthropic.endStalls();
    await botSays("One moment.");
    await botSays("A noisy picture.");
    expect(discord.callsTo("refreshAttachmentUrls").length).toBeGreaterThanOrEqual(1);
    expect(discord.callsTo("refreshAttachmentUrls")[0]?.body).toEqual({ attachment_urls: [attachment?.url] });
    const request = anthropic.requests[1];
    expect(request?.images).toHaveLength(1);
    const image = request?.images[0];
    expect([image?.width, image?.height]).toEqual([96, 64]);
    expect((await pixels(image?.bytes ?? new Uint8Array())).equals(await pixels(picture))).toBe(true);
    expect(botSaid()).not.toMatch(/expired|could not/i);
  }, 60_000);

  it("a large image is resized to 1568 px on its long edge before the model sees it", async () => {
    const { anthropic } = t;
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: "#3355aa" } })
      .jpeg()
      .toBuffer();
    const before = anthropic.requests.length;
    anthropic.enqueue([{ type: "text", text: "A blue picture." }]);
    await discord.injectDm({
      content: "and this one?",
      attachments: [{ bytes: new Uint8Array(photo), filename: "blue.jpg", contentType: "image/jpeg" }],
    });
    await botSays("A blue picture.");
    const image = anthropic.requests[before]?.images.at(-1);
    expect([image?.width, image?.height]).toEqual([1568, 1045]);
    const { dominant } = await sharp(image?.bytes ?? Buffer.alloc(0)).stats();
    // The same colour (#3355aa), give or take JPEG's rounding.
    expect(Math.abs(dominant.r - 0x33)).toBeLessThan(16);
    expect(Math.abs(dominant.g - 0x55)).toBeLessThan(16);
    expect(Math.abs(dominant.b - 0xaa)).toBeLessThan(16);
  }, 60_000);

  it("a PDF attachment reaches the model as a document block with the same bytes", async () => {
    const { anthropic } = t;
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    const before = anthropic.requests.length;
    anthropic.enqueue([{ type: "text", text: "Read the PDF." }]);
    await discord.injectDm({
      content: "summary please",
      attachments: [{ bytes: new Uint8Array(pdf), filename: "q3.pdf", contentType: "application/pdf" }],
    });
    await botSays("Read the PDF.");
    const documents = anthropic.requests[before]?.documents ?? [];
    expect(documents).toHaveLength(1);
    expect(documents[0]?.mediaType).toBe("application/pdf");
    expect(Buffer.from(documents[0]?.bytes ?? []).equals(pdf)).toBe(true);
  }, 60_000);

  it("send_file uploads a CSV the agent wrote as one attachment; its nonce refuses a second copy", async () => {
    const { anthropic } = t;
    const csv = "region,total\nnorth,12\nsouth,30\n";
    anthropic.enqueue([
      { type: "tool_call", name: "send_file", args: { content: csv, name: "totals.csv", caption: "Totals" } },
    ]);
    anthropic.enqueue([{ type: "text", text: "Sent the totals." }]);
    await discord.injectDm({ content: "send me the totals as a CSV" });
    await botSays("Sent the totals.");
    await expect.poll(() => discord.sentFiles().length, { timeout: 10_000, interval: 50 }).toBe(1);

    const dm = discord.dmChannel().id;
    const [sent] = discord.sentFiles();
    expect(sent).toMatchObject({ channelId: dm, filename: "totals.csv" });
    expect(Buffer.from(sent?.bytes ?? []).toString("utf8")).toBe(csv);
    const upload = discord
      .callsTo("createMessage")
      .find((call) => (call.body as { attachments?: unknown[] }).attachments !== undefined);
    const payload = upload?.body as { content?: string; nonce?: string; enforce_nonce?: boolean };
    expect(payload).toMatchObject({ content: "Totals", enforce_nonce: true });
    // The outbox entry's own key: the same on any resend of that entry.
    expect(payload.nonce).toMatch(/^outbox:\d+:file:0$/);
    expect(botFileMessages().map((message) => message.id)).toEqual([sent?.messageId]);

    // The outbox sending the same entry again (a restart between the upload and marking it sent) sends the same
    // request: Discord answers with the first message and keeps no second copy.
    const form = new FormData();
    form.append("payload_json", JSON.stringify(payload));
    form.append(
      "files[0]",
      new Blob([Buffer.from(sent?.bytes ?? [])], { type: sent?.contentType ?? "" }),
      "totals.csv",
    );
    const again = await fetch(`${discord.restApi}/v10/channels/${dm}/messages`, {
      method: "POST",
      headers: { authorization: `Bot ${discord.token}` },
      body: form,
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(sent?.messageId);
    expect(discord.sentFiles()).toHaveLength(1);
    expect(botFileMessages()).toHaveLength(1);
  }, 60_000);
});
