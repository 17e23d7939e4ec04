import { describe, expect, it } from "vitest";
import { subgoalRequest } from "../src/context/subgoals/subgoal-extraction.js";
import { type AttachmentContent, describeAttachment, estimateMessageTokens, type Message } from "../src/index.js";
import { genAiInputMessages } from "../src/telemetry/genai-messages.js";

const sheet: AttachmentContent = {
  type: "attachment",
  name: "figures.xlsx",
  mimeType: "application/vnd.ms-excel",
  sizeBytes: 2048,
  source: { channel: "telegram", accountId: "default", id: "f1", chatId: "1", messageId: "2" },
};

const user: Message = {
  role: "user",
  content: [
    { type: "text", text: "Compare these" },
    { type: "image", data: "AAAA", mimeType: "image/png" },
    { type: "document", data: "JVBERi0=", mimeType: "application/pdf", name: "q3-report.pdf" },
    sheet,
  ],
  timestamp: 1,
};

describe("a user's image, document and unresolved attachment", () => {
  it("are GenAI semconv parts: blobs with their modality, and the attachment's line as text", () => {
    expect(JSON.parse(genAiInputMessages([user]))).toEqual([
      {
        role: "user",
        parts: [
          { type: "text", content: "Compare these" },
          { type: "blob", modality: "image", mime_type: "image/png", content: "AAAA" },
          { type: "blob", modality: "document", mime_type: "application/pdf", content: "JVBERi0=" },
          { type: "text", content: "[attachment: figures.xlsx (application/vnd.ms-excel, 2.0 KB) — not read]" },
        ],
      },
    ]);
  });

  it("are named in the text the subgoal extractor reads", () => {
    const request = subgoalRequest([user], undefined);
    const text = String(request.messages[0]?.content);
    expect(text).toContain(`user: Compare these [image] [document: q3-report.pdf] ${describeAttachment(sheet)}`);
  });

  it("count toward the token estimate", () => {
    const textOnly: Message = { role: "user", content: [{ type: "text", text: "Compare these" }], timestamp: 1 };
    expect(estimateMessageTokens(user)).toBeGreaterThan(estimateMessageTokens(textOnly) + 1200);
  });
});
