import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ChunkLimits, chunkText, ReplyChunkError } from "../src/index.js";

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,}).*$/gm;
const contentOf = (text: string): string => text.replace(FENCE_LINE, "").replace(/\s+/g, "");

function assertWithin(chunks: string[], limits: ChunkLimits): void {
  for (const chunk of chunks) {
    expect(chunk.length).toBeLessThanOrEqual(limits.maxLength);
    if (limits.maxLines !== undefined) expect(chunk.split("\n").length).toBeLessThanOrEqual(limits.maxLines);
    expect(chunk.trim()).not.toBe("");
  }
}

/** Fence lines alternate open/close inside every chunk, i.e. no chunk leaves a code block open. */
function assertFencesBalanced(chunk: string): void {
  expect(chunk.match(FENCE_LINE)?.length ?? 0, `unbalanced fences in:\n${chunk}`).toSatisfy((n: number) => n % 2 === 0);
}

const WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"];

/** A deterministic long reply: sentences, paragraphs and a code block, about `length` characters. */
function longReply(length: number): string {
  let text = "";
  let n = 0;
  while (text.length < length) {
    n++;
    const sentence = `${Array.from({ length: 3 + (n % 9) }, (_, i) => WORDS[(n * 7 + i * 3) % WORDS.length]).join(" ")}.`;
    text += n % 11 === 0 ? "\n\n" : n % 5 === 0 ? "\n" : " ";
    text += sentence;
    if (n % 37 === 0)
      text += `\n\n\`\`\`python\n${Array.from({ length: 30 }, (_, i) => `x_${i} = ${i} * 2`).join("\n")}\n\`\`\`\n`;
  }
  return text.trim();
}

describe("chunkText", () => {
  it("returns short text as one chunk, unchanged", () => {
    expect(chunkText("hello **world**", { maxLength: 100 })).toEqual(["hello **world**"]);
  });

  it("closes a code fence at the chunk end and reopens it with the same language", () => {
    const code = Array.from({ length: 40 }, (_, i) => `let value${i} = ${i};`).join("\n");
    const text = `Intro.\n\n\`\`\`typescript\n${code}\n\`\`\`\n\nOutro.`;
    const limits = { maxLength: 200 };
    const chunks = chunkText(text, limits);
    expect(chunks.length).toBeGreaterThan(3);
    assertWithin(chunks, limits);
    chunks.forEach(assertFencesBalanced);
    const middle = chunks.slice(1, -1);
    for (const chunk of middle) expect(chunk.startsWith("```typescript\n")).toBe(true);
    const codeLines = chunks.flatMap((chunk) => chunk.split("\n")).filter((line) => line.startsWith("let "));
    expect(codeLines).toEqual(code.split("\n"));
    expect(chunks.at(-1)).toMatch(/Outro\.$/);
  });

  it("never splits an emoji: families, flags and skin tones stay whole", () => {
    const emoji = ["👨‍👩‍👧‍👦", "🇫🇷", "👍🏽", "é", "🙂"];
    const text = Array.from({ length: 200 }, (_, i) => emoji[i % emoji.length]).join("");
    const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    for (const maxLength of [16, 17, 23, 31, 64]) {
      const chunks = chunkText(text, { maxLength });
      assertWithin(chunks, { maxLength });
      expect(chunks.join("")).toBe(text);
      for (const chunk of chunks) {
        for (const { segment } of segmenter.segment(chunk)) expect(emoji).toContain(segment);
      }
    }
  });

  it("splits a 10 000-character reply into in-order chunks within the limit that keep all content", () => {
    const text = longReply(10_000);
    expect(text.length).toBeGreaterThanOrEqual(10_000);
    for (const limits of [{ maxLength: 2000 }, { maxLength: 4096 }, { maxLength: 500, maxLines: 12 }]) {
      const chunks = chunkText(text, limits);
      assertWithin(chunks, limits);
      chunks.forEach(assertFencesBalanced);
      expect(contentOf(chunks.join("\n"))).toBe(contentOf(text));
    }
  });

  it("keeps words whole and prefers paragraph, then line, then sentence breaks", () => {
    const text = longReply(10_000);
    const chunks = chunkText(text, { maxLength: 300 });
    const words = new Set(text.split(/[\s.]+/));
    for (const chunk of chunks) {
      for (const word of chunk.split(/[\s.]+/)) if (!word.startsWith("```")) expect(words).toContain(word);
    }
    expect(chunkText("First paragraph here.\n\nSecond one is here. More text", { maxLength: 40 })[0]).toBe(
      "First paragraph here.",
    );
    expect(chunkText("One line here, quite long\nAnother line. And more words", { maxLength: 45 })[0]).toBe(
      "One line here, quite long",
    );
    expect(chunkText("A sentence ends. Then some words follow", { maxLength: 30 })[0]).toBe("A sentence ends.");
  });

  it("respects Discord's 17-line limit, counting the fence lines it adds", () => {
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i}`);
    const text = `${lines.slice(0, 20).join("\n")}\n\`\`\`\n${lines.slice(20).join("\n")}\n\`\`\``;
    const limits = { maxLength: 2000, maxLines: 17 };
    const chunks = chunkText(text, limits);
    assertWithin(chunks, limits);
    chunks.forEach(assertFencesBalanced);
    expect(contentOf(chunks.join("\n"))).toBe(contentOf(text));
  });

  it("rejects limits too small to hold a fenced line", () => {
    expect(() => chunkText("x", { maxLength: 5 })).toThrow(ReplyChunkError);
    expect(() => chunkText("x", { maxLength: 100, maxLines: 2 })).toThrow(/maxLines/);
  });

  it("keeps every chunk within the limits for arbitrary text, without losing content", () => {
    const unit = fc.constantFrom(
      "word",
      "x",
      " ",
      "\n",
      "\n\n",
      "\n```js\n",
      "\n```\n",
      ". ",
      "🙂",
      "👨‍👩‍👧",
      "é",
      "longerwordhere",
    );
    fc.assert(
      fc.property(
        fc.string({ unit, maxLength: 200 }),
        fc.integer({ min: 16, max: 120 }),
        fc.option(fc.integer({ min: 3, max: 10 }), { nil: undefined }),
        (text, maxLength, maxLines) => {
          const limits: ChunkLimits = maxLines === undefined ? { maxLength } : { maxLength, maxLines };
          const chunks = chunkText(text, limits);
          assertWithin(chunks, limits);
          expect(contentOf(chunks.join("\n"))).toBe(contentOf(text));
        },
      ),
      { numRuns: 300 },
    );
  });
});
