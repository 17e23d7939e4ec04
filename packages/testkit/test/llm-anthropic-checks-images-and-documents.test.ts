import Anthropic from "@anthropic-ai/sdk";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeLlmServer, mediaParts, startFakeAnthropic } from "../src/llm/index.js";
import { clearLlmEnv } from "./llm-env.js";

let fake: FakeLlmServer;
beforeAll(() => clearLlmEnv());
afterEach(async () => fake?.close());

const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const pdf = Buffer.from("%PDF-1.7\n%%EOF\n");

/** A PNG header claiming `width` × `height` (all the fake reads of it). */
function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write("IHDR", 12, "latin1");
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return header;
}

type Block = Anthropic.ContentBlockParam;
const image = (bytes: Buffer | string, mediaType: string): Block => ({
  type: "image",
  source: {
    type: "base64",
    media_type: mediaType as Anthropic.Base64ImageSource["media_type"],
    data: typeof bytes === "string" ? bytes : bytes.toString("base64"),
  },
});

async function send(content: Block[]): Promise<unknown> {
  const client = new Anthropic({ baseURL: fake.url, apiKey: "sk-ant-test", maxRetries: 0 });
  const stream = client.messages.stream({
    model: "claude-sonnet-4-6",
    max_tokens: 64,
    messages: [{ role: "user", content }],
  });
  return stream.finalMessage();
}

async function refusal(content: Block[]): Promise<string> {
  if (fake.pending() === 0) fake.enqueue([{ type: "text", text: "never sent" }]);
  const error = await send(content).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as {
    type?: string;
    error?: { type?: string; message?: string };
  };
  expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  // The refusal comes before any generation: the script is still waiting.
  expect(fake.pending()).toBe(1);
  return body.error?.message ?? "";
}

describe("fake Anthropic checks image and document blocks as the Messages API does", () => {
  it("takes a PNG and a PDF, and records both decoded", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue([{ type: "text", text: "seen" }]);
    await send([
      { type: "text", text: "look" },
      image(png, "image/png"),
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: pdf.toString("base64") },
        title: "a.pdf",
      },
    ]);
    const request = fake.requests[0]!;
    expect(request.images.map((i) => [i.mediaType, i.byteLength, i.width, i.height])).toEqual([
      ["image/png", png.length, 1, 1],
    ]);
    expect(request.documents.map((d) => [d.mediaType, d.name, d.bytes.toString("latin1")])).toEqual([
      ["application/pdf", "a.pdf", pdf.toString("latin1")],
    ]);
    expect(mediaParts(request).images[0]!.sha256).toBe(request.images[0]!.sha256);
    // Not enumerable: a whole-request comparison sees only what was sent.
    expect(Object.keys(request)).toEqual(["method", "path", "headers", "body"]);
  });

  it("refuses an image of a media type it does not take", async () => {
    fake = await startFakeAnthropic();
    expect(await refusal([image(png, "image/bmp")])).toBe(
      "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    );
  });

  it("refuses an image whose base64 is over 5 MB", async () => {
    fake = await startFakeAnthropic();
    const big = Buffer.alloc(4 * 1024 * 1024).toString("base64");
    expect(await refusal([{ type: "text", text: "big" }, image(big, "image/png")])).toBe(
      `messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: ${big.length} bytes > 5242880 bytes`,
    );
  });

  it("refuses an image over 8000 px on a side, and over 2000 px when more than 20 images are sent", async () => {
    fake = await startFakeAnthropic();
    expect(await refusal([image(pngHeader(8001, 10), "image/png")])).toBe(
      "messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels",
    );
    const many = Array.from({ length: 21 }, () => image(pngHeader(2001, 10), "image/png"));
    expect(await refusal(many)).toBe(
      "messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels",
    );
  });

  it("refuses an image whose bytes are another format than it says", async () => {
    fake = await startFakeAnthropic();
    expect(await refusal([image(png, "image/jpeg")])).toBe(
      "messages.0.content.0.image.source.base64.data: The image was specified using the image/jpeg media type, but the image appears to be a image/png image",
    );
  });

  it("refuses a base64 document that is not a PDF", async () => {
    fake = await startFakeAnthropic();
    const notPdf = Buffer.from("<html></html>").toString("base64");
    const doc = (mediaType: string): Block => ({
      type: "document",
      source: { type: "base64", media_type: mediaType as "application/pdf", data: notPdf },
    });
    expect(await refusal([doc("text/html")])).toBe(
      "messages.0.content.0.document.source.base64.media_type: Input should be 'application/pdf'",
    );
    expect(await refusal([doc("application/pdf")])).toBe(
      "messages.0.content.0.document.source.base64.data: The PDF specified was not valid.",
    );
  });

  it("checks images inside tool results too", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue([{ type: "text", text: "never sent" }]);
    const client = new Anthropic({ baseURL: fake.url, apiKey: "sk-ant-test", maxRetries: 0 });
    const error = await client.messages
      .stream({
        model: "claude-sonnet-4-6",
        max_tokens: 64,
        messages: [
          { role: "user", content: "shoot" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "camera", input: {} }] },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_1",
                content: [image(png, "image/gif") as Anthropic.ImageBlockParam],
              },
            ],
          },
        ],
      })
      .finalMessage()
      .catch((e: unknown) => e);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).status).toBe(400);
    expect(String((error as Error).message)).toContain(
      "messages.2.content.0.content.0.image.source.base64.data: The image was specified using the image/gif media type",
    );
  });
});
