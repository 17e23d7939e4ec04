import { createHash } from "node:crypto";
import { type AttachmentContent, describeAttachment, type Message } from "@chorus/core";
import type { FakeLlmServer } from "@chorus/testkit";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { builtinModels, compatibleModel } from "../src/index.js";
import { providerCases } from "./provider-matrix.js";
import { clearLlmEnv, collect } from "./stream-collect.js";

let fake: FakeLlmServer | undefined;
beforeAll(() => clearLlmEnv());
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

// A real 1×1 PNG and a small (header-valid) PDF: the bytes the model must receive unchanged.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const pdf = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const photoAndReport: Message = {
  role: "user",
  content: [
    { type: "text", text: "What do these say?" },
    { type: "image", data: png.toString("base64"), mimeType: "image/png" },
    { type: "document", data: pdf.toString("base64"), mimeType: "application/pdf", name: "report.pdf" },
  ],
  timestamp: 1,
};

const spreadsheet: AttachmentContent = {
  type: "attachment",
  name: "figures.xlsx",
  mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  sizeBytes: 14_540,
  kind: "document",
  source: { channel: "telegram", accountId: "default", id: "file-1", chatId: "42", messageId: "7" },
};

/** Every text the model was sent in user content, whichever API. */
function userTexts(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const message of (body.messages ?? body.input ?? []) as { role?: string; content?: unknown }[]) {
    if (message.role !== "user" || !Array.isArray(message.content)) continue;
    for (const part of message.content as { text?: unknown }[]) if (typeof part.text === "string") out.push(part.text);
  }
  return out;
}

function userParts(body: Record<string, unknown>): Record<string, unknown>[] {
  const messages = (body.messages ?? body.input ?? []) as { role?: string; content?: unknown }[];
  const user = messages.find((message) => message.role === "user");
  return (user?.content ?? []) as Record<string, unknown>[];
}

const readers = providerCases.filter((c) => c.name !== "openai-compatible");

describe("a user message with an image and a PDF reaches each API as its own image and document parts", () => {
  for (const providerCase of readers) {
    it(`${providerCase.name}: the same bytes arrive, the document under its name`, async () => {
      const setup = await providerCase.start();
      fake = setup.fake;
      expect(setup.model.capabilities.documents).toBe(true);
      fake.enqueue([{ type: "text", text: "A dot and a report." }]);
      const { message } = await collect(setup.streamFn(setup.model, { messages: [photoAndReport] }));
      expect(message.stopReason).toBe("stop");

      const request = fake.requests[0]!;
      expect(request.images).toHaveLength(1);
      expect(request.images[0]).toMatchObject({ mediaType: "image/png", byteLength: png.length, width: 1, height: 1 });
      expect(request.images[0]!.bytes.equals(png)).toBe(true);
      expect(request.images[0]!.sha256).toBe(sha256(png));
      expect(request.documents).toHaveLength(1);
      expect(request.documents[0]).toMatchObject({ mediaType: "application/pdf", name: "report.pdf" });
      expect(request.documents[0]!.bytes.equals(pdf)).toBe(true);
      expect(userTexts(request.body)).toEqual(["What do these say?"]);
    });
  }

  it("each API gets the shape its SDK types name", async () => {
    const shapes: Record<string, unknown> = {};
    for (const providerCase of readers) {
      const setup = await providerCase.start();
      fake = setup.fake;
      fake.enqueue([{ type: "text", text: "ok" }]);
      await collect(setup.streamFn(setup.model, { messages: [photoAndReport] }));
      shapes[providerCase.name] = userParts(fake.requests[0]!.body)[2];
      await fake.close();
      fake = undefined;
    }
    const data = pdf.toString("base64");
    expect(shapes.anthropic).toMatchObject({
      type: "document",
      source: { type: "base64", media_type: "application/pdf", data },
      title: "report.pdf",
    });
    expect(shapes["openai-chat"]).toEqual({
      type: "file",
      file: { filename: "report.pdf", file_data: `data:application/pdf;base64,${data}` },
    });
    expect(shapes["openai-responses"]).toEqual({
      type: "input_file",
      filename: "report.pdf",
      file_data: `data:application/pdf;base64,${data}`,
    });
  });
});

describe("an attachment nobody resolved reaches the model as its description line", () => {
  for (const providerCase of providerCases) {
    it(`${providerCase.name}`, async () => {
      const setup = await providerCase.start();
      fake = setup.fake;
      fake.enqueue([{ type: "text", text: "I cannot open spreadsheets." }]);
      const user: Message = {
        role: "user",
        content: [{ type: "text", text: "see attached" }, spreadsheet],
        timestamp: 1,
      };
      const { message } = await collect(setup.streamFn(setup.model, { messages: [user] }));
      expect(message.stopReason).toBe("stop");
      const line = describeAttachment(spreadsheet);
      expect(line).toBe(
        "[attachment: figures.xlsx (application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, 14.2 KB) — not read]",
      );
      expect(userTexts(fake.requests[0]!.body)).toEqual(["see attached", line]);
      expect(JSON.stringify(fake.requests[0]!.body)).not.toContain("file-1");
    });
  }
});

describe("a model that does not read documents", () => {
  it("openai-compatible (no `documents` capability): the document is named in a line, the image still sent", async () => {
    const setup = await providerCases.find((c) => c.name === "openai-compatible")!.start();
    fake = setup.fake;
    expect(setup.model.capabilities.documents).toBeUndefined();
    fake.enqueue([{ type: "text", text: "ok" }]);
    await collect(setup.streamFn(setup.model, { messages: [photoAndReport] }));
    const request = fake.requests[0]!;
    expect(request.documents).toEqual([]);
    expect(userTexts(request.body)).toEqual([
      "What do these say?",
      `[document omitted: report.pdf (application/pdf, ${pdf.length} B) — this model does not read documents]`,
    ]);
  });

  it("a registered model keeps documents off unless it says so", () => {
    expect(compatibleModel({ id: "m", provider: "ollama", baseUrl: "http://x" }).capabilities.documents).toBe(
      undefined,
    );
    const pdfReaders = builtinModels.filter((m) => m.capabilities.documents === true).map((m) => m.id);
    expect(pdfReaders).toEqual(builtinModels.map((m) => m.id));
  });
});

describe("Anthropic takes a plain-text document as a text source", () => {
  it("decodes it, under its title", async () => {
    const setup = await providerCases.find((c) => c.name === "anthropic")!.start();
    fake = setup.fake;
    fake.enqueue([{ type: "text", text: "ok" }]);
    const notes = Buffer.from("line one\nline two\n");
    const user: Message = {
      role: "user",
      content: [{ type: "document", data: notes.toString("base64"), mimeType: "text/plain", name: "notes.txt" }],
      timestamp: 1,
    };
    await collect(setup.streamFn(setup.model, { messages: [user] }));
    expect(userParts(fake.requests[0]!.body)[0]).toMatchObject({
      type: "document",
      source: { type: "text", media_type: "text/plain", data: "line one\nline two\n" },
      title: "notes.txt",
    });
    expect(fake.requests[0]!.documents[0]).toMatchObject({ mediaType: "text/plain", name: "notes.txt" });
  });
});
