import type { ChannelCapabilities, MarkupDialect } from "../channel/channel-types.js";
import { convertMarkdown } from "../markup/convert-markdown.js";
import { inlineSpanRanges } from "./inline-span-ranges.js";
import { ReplyChunkError } from "./reply-chunk-error.js";
import { type ChunkLimits, fitsLimits, MIN_CHUNK_LENGTH, splitText, type TextChunk } from "./text-chunker.js";

/** The smallest message length a reply can be rendered into (room for an escaped, fenced line of code). */
export const MIN_REPLY_LENGTH = 128;

/**
 * Turns the agent's Markdown reply into messages for one channel: converted to the channel's markup and split so
 * that every message, after conversion and escaping, fits `maxMessageLength` and `maxLines`.
 * It splits the Markdown first and converts each piece, splitting a piece again (with a proportionally smaller
 * budget) when escaping made it too long — so tags are never cut in half and code fences are reopened.
 * Breaks avoid inline spans (code, links, emphasis) where any other break fits.
 * Contract: returns the messages in order, each within the limits; throws ReplyChunkError when
 * maxMessageLength < MIN_REPLY_LENGTH. Formatting that must be split anyway is shown literally.
 */
export function renderReplyChunks(
  markdown: string,
  capabilities: Pick<ChannelCapabilities, "maxMessageLength" | "maxLines" | "markup">,
): string[] {
  if (capabilities.maxMessageLength < MIN_REPLY_LENGTH) {
    throw new ReplyChunkError(
      `maxMessageLength must be at least ${MIN_REPLY_LENGTH} to render replies, got ${capabilities.maxMessageLength}`,
    );
  }
  const target: ChunkLimits =
    capabilities.maxLines === undefined
      ? { maxLength: capabilities.maxMessageLength }
      : { maxLength: capabilities.maxMessageLength, maxLines: capabilities.maxLines };
  return renderWithin(markdown, capabilities.markup, target, target);
}

function renderWithin(markdown: string, dialect: MarkupDialect, target: ChunkLimits, budget: ChunkLimits): string[] {
  const out: string[] = [];
  const source = markdown.replace(/\r\n?/g, "\n");
  for (const chunk of splitText(source, budget, { keepTogether: inlineSpanRanges(source) })) {
    const piece = sourceOf(chunk);
    const rendered = convertMarkdown(piece, dialect).trim();
    if (rendered.length === 0) continue;
    if (fitsLimits(rendered, target)) {
      out.push(rendered);
      continue;
    }
    out.push(...renderWithin(piece, dialect, target, shrink(piece, rendered, target, budget)));
  }
  return out;
}

// A piece that starts mid-line must not turn into a heading, quote, list, rule or fence just because its first
// characters now start a line: escape the marker with a backslash.
const BLOCK_START = /^(\s*)(?:#{1,6}(?=\s|$)|>|[-+*](?=\s)|`{3}|~{3}|(?=([-*_])(?:[ \t]*\2){2,}[ \t]*(?:\n|$)))/;
const ORDERED_START = /^(\s*\d{1,9})([.)])(?=\s)/;

function sourceOf(chunk: TextChunk): string {
  if (!chunk.continuesLine || chunk.insideFence) return chunk.text;
  if (ORDERED_START.test(chunk.text)) return chunk.text.replace(ORDERED_START, "$1\\$2");
  const match = BLOCK_START.exec(chunk.text);
  if (match === null) return chunk.text;
  const at = match[1]!.length;
  return `${chunk.text.slice(0, at)}\\${chunk.text.slice(at)}`;
}

// Scale the source budget by how much conversion grew the text, with a margin, and always strictly below the
// piece, so that repeated splitting ends.
function shrink(piece: string, rendered: string, target: ChunkLimits, budget: ChunkLimits): ChunkLimits {
  const lengthRatio = Math.min(1, target.maxLength / rendered.length);
  const maxLength = Math.min(Math.floor(piece.length * lengthRatio * 0.9), piece.length - 1, budget.maxLength - 1);
  if (maxLength < MIN_CHUNK_LENGTH) {
    throw new ReplyChunkError(`cannot fit this reply into ${target.maxLength}-character messages`);
  }
  if (target.maxLines === undefined || budget.maxLines === undefined) return { maxLength };
  const renderedLines = rendered.split("\n").length;
  if (renderedLines <= target.maxLines) return { maxLength, maxLines: budget.maxLines };
  const pieceLines = piece.split("\n").length;
  const maxLines = Math.max(
    3,
    Math.min(budget.maxLines - 1, Math.floor((pieceLines * target.maxLines) / renderedLines)),
  );
  return { maxLength, maxLines };
}
