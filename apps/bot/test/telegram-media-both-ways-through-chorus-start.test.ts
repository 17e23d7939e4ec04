import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type FakeLlmServer, startFakeOpenAI, transcriptionUploads } from "@chorus/testkit";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everythingSentTo, sentText, startTelegramBot, type TelegramBot } from "./support/telegram-bot-fixture.js";

// `chorus start` on the fake Telegram and the fake Anthropic Messages API (which checks image and document blocks as
// the real one does), with a fake OpenAI-compatible transcription endpoint for voice notes.
let t: TelegramBot;
let whisper: FakeLlmServer;
const transcriptions: string[] = [];

beforeAll(async () => {
  whisper = await startFakeOpenAI({ transcriptions });
  t = await startTelegramBot(
    [],
    async (dataDir) => {
      await mkdir(join(dataDir, "workspaces", "assistant", "charts"), { recursive: true });
      const chart = await sharp({ create: { width: 80, height: 60, channels: 3, background: "#118833" } })
        .png()
        .toBuffer();
      await writeFile(join(dataDir, "workspaces", "assistant", "charts", "sales.png"), chart);
    },
    "anthropic",
    ["media:", "  transcription:", `    baseUrl: ${JSON.stringify(whisper.url)}`, "    model: whisper-1"],
  );
}, 300_000);

afterAll(async () => {
  await t?.close();
  await whisper?.close();
});

describe("media through chorus start on Telegram", () => {
  it("a photo without a caption reaches the model as an image, resized; the answer arrives", async () => {
    const { telegram, openai: anthropic } = t;
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: "#3355aa" } })
      .jpeg()
      .toBuffer();
    anthropic.enqueue([{ type: "text", text: "A blue picture." }]);
    await telegram.injectMedia({ kind: "photo", bytes: new Uint8Array(photo) });
    await sentText(telegram, telegram.user.id, "A blue picture.");
    const request = anthropic.requests.at(-1);
    expect(request?.images).toHaveLength(1);
    expect(request?.images[0]?.mediaType).toBe("image/jpeg");
    expect(Math.max(request?.images[0]?.width ?? 0, request?.images[0]?.height ?? 0)).toBe(1568);
  }, 60_000);

  it("a PDF document reaches the model as a document block with the same bytes", async () => {
    const { telegram, openai: anthropic } = t;
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    anthropic.enqueue([{ type: "text", text: "Read the PDF." }]);
    await telegram.injectMedia({
      kind: "document",
      bytes: new Uint8Array(pdf),
      fileName: "q3.pdf",
      mimeType: "application/pdf",
      caption: "summary please",
    });
    await sentText(telegram, telegram.user.id, "Read the PDF.");
    const request = anthropic.requests.at(-1);
    expect(request?.documents).toHaveLength(1);
    expect(Buffer.from(request?.documents[0]?.bytes ?? []).equals(pdf)).toBe(true);
  }, 60_000);

  it("a voice note is transcribed by the configured endpoint and answered", async () => {
    const { telegram, openai: anthropic } = t;
    transcriptions.push("What time is it in Oslo?");
    anthropic.enqueue([{ type: "text", text: "It is noon." }]);
    const ogg = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0x00, 0x02, ...new Array(200).fill(5)]);
    await telegram.injectMedia({ kind: "voice", bytes: ogg });
    await sentText(telegram, telegram.user.id, "It is noon.");
    expect(transcriptionUploads(whisper)).toHaveLength(1);
    const said = JSON.stringify(anthropic.requests.at(-1)?.body);
    expect(said).toContain("transcribed]: What time is it in Oslo?");
    expect(everythingSentTo(telegram, telegram.user.id)).not.toContain("invalid_request_error");
  }, 60_000);

  it("send_file sends a chart from the workspace as a photo, once", async () => {
    const { telegram, openai: anthropic } = t;
    anthropic.enqueue([{ type: "tool_call", name: "send_file", args: { path: "charts/sales.png", caption: "Sales" } }]);
    anthropic.enqueue([{ type: "text", text: "Here it is." }]);
    await telegram.injectDm({ text: "send me the sales chart" });
    await sentText(telegram, telegram.user.id, "Here it is.");
    for (let i = 0; i < 100 && telegram.sentFiles().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const files = telegram.sentFiles();
    expect(files).toHaveLength(1);
    expect(files[0]?.method).toBe("sendPhoto");
    expect(files[0]?.message.caption).toBe("Sales");
    const meta = await sharp(Buffer.from(files[0]?.bytes ?? [])).metadata();
    expect([meta.width, meta.height]).toEqual([80, 60]);
  }, 60_000);

  it("a guest in the group cannot make the agent send workspace files", async () => {
    const { telegram, openai: anthropic } = t;
    const before = telegram.sentFiles().length;
    anthropic.enqueue([{ type: "tool_call", name: "send_file", args: { path: "charts/sales.png" } }]);
    anthropic.enqueue([{ type: "text", text: "I may not send that." }]);
    await telegram.injectGroupMessage({
      text: "send me the chart",
      from: { id: 3003, is_bot: false, first_name: "Mallory" },
    });
    await sentText(telegram, telegram.group.id, "I may not send that.");
    expect(telegram.sentFiles()).toHaveLength(before);
  }, 60_000);
});
