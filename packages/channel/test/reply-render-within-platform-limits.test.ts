import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertMarkdown, type MarkupDialect, ReplyChunkError, renderReplyChunks } from "../src/index.js";

const DIALECTS: MarkupDialect[] = ["telegram-html", "slack-mrkdwn", "discord-md", "plain", "markdown"];

function assertWithin(chunks: string[], maxMessageLength: number, maxLines?: number): void {
  for (const chunk of chunks) {
    expect(chunk.length).toBeLessThanOrEqual(maxMessageLength);
    if (maxLines !== undefined) expect(chunk.split("\n").length).toBeLessThanOrEqual(maxLines);
  }
}

describe("renderReplyChunks", () => {
  it("keeps every message within the limit after escaping, even when escaping grows the text fivefold", () => {
    const reply = "<&>".repeat(400); // 1 200 characters that become 4 800 in Telegram HTML
    const chunks = renderReplyChunks(reply, { maxMessageLength: 500, markup: "telegram-html" });
    assertWithin(chunks, 500);
    expect(chunks.join("")).toBe(convertMarkdown(reply, "telegram-html"));
  });

  it("splits a long code block into complete, reopened code blocks in every dialect", () => {
    const code = Array.from({ length: 80 }, (_, i) => `if (a${i} < b && c) { return "<${i}>"; }`).join("\n");
    const reply = `Here you go:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nDone.`;
    const telegram = renderReplyChunks(reply, { maxMessageLength: 600, markup: "telegram-html" });
    assertWithin(telegram, 600);
    for (const chunk of telegram.filter((c) => c.includes("return"))) {
      expect(chunk).toMatch(/<pre><code class="language-ts">[\s\S]*<\/code><\/pre>/);
    }
    const discord = renderReplyChunks(reply, { maxMessageLength: 2000, maxLines: 17, markup: "discord-md" });
    assertWithin(discord, 2000, 17);
    for (const chunk of discord.filter((c) => c.includes("return"))) expect(chunk).toMatch(/```ts\n[\s\S]*\n```/);
  });

  it("renders a 10 000-character reply for each platform in order and within limits", () => {
    const paragraph = "Some **bold** text, a [link](https://e.com/?a=1&b=2) and `code <x>`. ".repeat(6);
    const reply = Array.from({ length: 25 }, (_, i) => `## Part ${i}\n\n${paragraph}`).join("\n\n");
    expect(reply.length).toBeGreaterThan(10_000);
    const cases = [
      { maxMessageLength: 4096, markup: "telegram-html" },
      { maxMessageLength: 2000, maxLines: 17, markup: "discord-md" },
      { maxMessageLength: 3000, markup: "slack-mrkdwn" },
    ] as const;
    for (const capabilities of cases) {
      const chunks = renderReplyChunks(reply, capabilities);
      assertWithin(
        chunks,
        capabilities.maxMessageLength,
        "maxLines" in capabilities ? capabilities.maxLines : undefined,
      );
      const parts = chunks.join("\n").match(/Part \d+/g) ?? [];
      expect(parts).toEqual(Array.from({ length: 25 }, (_, i) => `Part ${i}`));
    }
  });

  it("does not cut through a link, a code span or bold text when another break fits", () => {
    const filler = "plain words here ".repeat(5);
    const reply = `${filler}[a link whose text has many words](https://e.com/x) then \`some inline code\` and **bold words too** end.`;
    for (let maxMessageLength = 128; maxMessageLength <= 200; maxMessageLength++) {
      const chunks = renderReplyChunks(reply, { maxMessageLength, markup: "telegram-html" });
      assertWithin(chunks, maxMessageLength);
      const joined = chunks.join("\n");
      expect(joined).toContain('<a href="https://e.com/x">a link whose text has many words</a>');
      expect(joined).toContain("<code>some inline code</code>");
      expect(joined).toContain("<b>bold words too</b>");
    }
  });

  it("does not turn text split mid-line into a quote, list or heading", () => {
    const reply = `${"x".repeat(100)} >${"y".repeat(40)}`;
    const chunks = renderReplyChunks(reply, { maxMessageLength: 128, markup: "telegram-html" });
    expect(chunks).toEqual(["x".repeat(100), `&gt;${"y".repeat(40)}`]);
  });

  it("fits any input into any dialect's limits", () => {
    const unit = fc.constantFrom(
      "<",
      ">",
      "&",
      "**",
      "*",
      "_",
      "`",
      "\n",
      "\n\n",
      "\n```py\n",
      "\n```\n",
      " ",
      "word ",
      "🙂",
      "# ",
      "- ",
      "> ",
      "[a](https://e.com)",
    );
    fc.assert(
      fc.property(
        fc.string({ unit, maxLength: 400 }),
        fc.constantFrom(...DIALECTS),
        fc.integer({ min: 128, max: 400 }),
        fc.option(fc.integer({ min: 3, max: 17 }), { nil: undefined }),
        (reply, markup, maxMessageLength, maxLines) => {
          const chunks = renderReplyChunks(
            reply,
            maxLines === undefined ? { maxMessageLength, markup } : { maxMessageLength, maxLines, markup },
          );
          assertWithin(chunks, maxMessageLength, maxLines);
          if (reply.replace(/```py|[\s`]/g, "").length > 0 && markup !== "plain")
            expect(chunks.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses message limits too small to render into", () => {
    expect(() => renderReplyChunks("hi", { maxMessageLength: 20, markup: "plain" })).toThrow(ReplyChunkError);
  });
});
