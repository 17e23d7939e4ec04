import { type CodeFence, closesFence, fenceOpenAfter } from "../markup/code-fence.js";
import { ReplyChunkError } from "./reply-chunk-error.js";

/** Size limits for one message. Length is in UTF-16 code units. */
export interface ChunkLimits {
  readonly maxLength: number;
  readonly maxLines?: number;
}

/** The smallest limits the chunker accepts: room for a reopened fence, one line of code and its closing fence. */
export const MIN_CHUNK_LENGTH = 16;
export const MIN_CHUNK_LINES = 3;

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const SENTENCE_END = /[.!?…][)"'»”’\]]*(?=\s)/g;
// A chunk break earlier than this share of the window is only used when nothing better exists.
const PREFERRED_SHARE = 0.5;

interface Cut {
  /** End of this chunk's text in `rest`. */
  end: number;
  /** Where the next chunk starts in `rest` (after the whitespace the break consumed). */
  next: number;
}

/** One chunk and how it relates to the text around it. */
export interface TextChunk {
  readonly text: string;
  /** The chunk begins in the middle of a source line (the break before it was a sentence, word or grapheme break). */
  readonly continuesLine: boolean;
  /** The chunk begins inside a code block (its fence was reopened). */
  readonly insideFence: boolean;
}

/**
 * Splits text into chunks within `limits`, preferring paragraph, then line, then sentence, then word breaks,
 * and never splitting a grapheme (emoji, flags, combining marks) unless one grapheme alone exceeds the limit.
 * A code fence open at a break is closed at the end of the chunk and reopened, with its language, in the next.
 * Contract: every chunk fits the limits; chunks are in order, non-blank, and together hold all non-whitespace
 * content of the input; throws ReplyChunkError for limits below MIN_CHUNK_LENGTH / MIN_CHUNK_LINES.
 */
export function chunkText(text: string, limits: ChunkLimits): string[] {
  return splitText(text, limits).map((chunk) => chunk.text);
}

/** Options of splitText. */
export interface SplitOptions {
  /**
   * [start, end) ranges of the ("\n"-normalised) text that should not be cut, e.g. inline Markdown spans; a cut
   * inside one is used only when no other break fits.
   */
  readonly keepTogether?: readonly (readonly [number, number])[];
}

/** Like chunkText, with where each chunk starts. Contract: the same guarantees as chunkText, with details. */
export function splitText(text: string, limits: ChunkLimits, options: SplitOptions = {}): TextChunk[] {
  validateLimits(limits);
  const chunks: TextChunk[] = [];
  let rest = text.replace(/\r\n?/g, "\n");
  let offset = 0;
  const keepTogether = options.keepTogether ?? [];
  let reopen: CodeFence | undefined;
  let continuesLine = false;
  while (rest.trim().length > 0) {
    const header = reopen === undefined ? "" : reopenHeader(reopen, limits.maxLength);
    const insideFence = reopen !== undefined;
    if (header.length + rest.length <= limits.maxLength) {
      // The last chunk closes a code block the text left open, so every chunk holds complete code blocks.
      const openAtEnd = fenceOpenAfter(rest.split("\n"), reopen);
      const whole = header + rest + (openAtEnd === undefined ? "" : `\n${openAtEnd.marker}`);
      if (fits(whole, limits)) {
        chunks.push({ text: whole, continuesLine, insideFence });
        break;
      }
    }
    const isInsideSpan = (end: number): boolean =>
      keepTogether.some(([start, stop]) => start < offset + end && offset + end < stop);
    const { cut, openAtCut } = chooseCut(rest, header, reopen, limits, isInsideSpan);
    const piece = rest.slice(0, cut.end);
    const closing = openAtCut === undefined ? "" : `\n${openAtCut.marker}`;
    // A blank piece (blank lines at a break) is dropped rather than sent as an empty message or code block.
    if (piece.trim().length > 0) chunks.push({ text: header + piece + closing, continuesLine, insideFence });
    continuesLine = cut.end < rest.length && rest[cut.end] !== "\n";
    rest = rest.slice(cut.next);
    offset += cut.next;
    reopen = openAtCut;
  }
  return chunks;
}

function validateLimits(limits: ChunkLimits): void {
  if (!Number.isInteger(limits.maxLength) || limits.maxLength < MIN_CHUNK_LENGTH) {
    throw new ReplyChunkError(`maxLength must be an integer ≥ ${MIN_CHUNK_LENGTH}, got ${limits.maxLength}`);
  }
  const lines = limits.maxLines;
  if (lines !== undefined && (!Number.isInteger(lines) || lines < MIN_CHUNK_LINES)) {
    throw new ReplyChunkError(`maxLines must be an integer ≥ ${MIN_CHUNK_LINES}, got ${lines}`);
  }
}

/** Whether a message fits the limits. Contract: length in UTF-16 code units, lines counted by "\n". */
export function fitsLimits(text: string, limits: ChunkLimits): boolean {
  return fits(text, limits);
}

function fits(text: string, limits: ChunkLimits): boolean {
  return text.length <= limits.maxLength && (limits.maxLines === undefined || lineCount(text) <= limits.maxLines);
}

function lineCount(text: string): number {
  let count = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

// The reopened fence keeps its language, unless that would eat most of a (tiny) message.
function reopenHeader(fence: CodeFence, maxLength: number): string {
  const withLanguage = `${fence.marker}${fence.language ?? ""}\n`;
  return withLanguage.length * 4 <= maxLength ? withLanguage : `${fence.marker}\n`;
}

function chooseCut(
  rest: string,
  header: string,
  reopen: CodeFence | undefined,
  limits: ChunkLimits,
  isInsideSpan: (end: number) => boolean,
): { cut: Cut; openAtCut: CodeFence | undefined } {
  const headerLines = header.length > 0 ? 1 : 0;
  let reserveChars = 0;
  let reserveLines = 0;
  for (;;) {
    const maxEnd = Math.max(1, limits.maxLength - header.length - reserveChars);
    const maxNewlines = limits.maxLines === undefined ? undefined : limits.maxLines - 1 - headerLines - reserveLines;
    const limit = Math.min(maxEnd, newlineLimit(rest, maxNewlines));
    // No line break may be taken and the text starts with one: skip that blank line.
    if (limit === 0) return { cut: { end: 0, next: 1 }, openAtCut: reopen };
    const cut = bestCut(rest, limit, isInsideSpan);
    const openAtCut = fenceOpenAfter(rest.slice(0, cut.end).split("\n"), reopen);
    if (openAtCut === undefined) return { cut, openAtCut };
    const closesNext = nextLineCloses(rest, cut, openAtCut);
    if (closesNext !== undefined && closesNext.end - cut.end <= openAtCut.marker.length + 1 + reserveChars) {
      // The code block ends right after the break: take its real closing line instead of adding one.
      if (fits(header + rest.slice(0, closesNext.end), limits)) return { cut: closesNext, openAtCut: undefined };
    }
    const needChars = openAtCut.marker.length + 1;
    if (needChars <= reserveChars && reserveLines >= 1) return { cut, openAtCut };
    reserveChars = Math.max(reserveChars, needChars);
    reserveLines = 1;
  }
}

/** The largest end index whose chunk holds at most `maxNewlines` line breaks. */
function newlineLimit(rest: string, maxNewlines: number | undefined): number {
  if (maxNewlines === undefined) return rest.length;
  let index = -1;
  for (let seen = 0; seen <= Math.max(0, maxNewlines); seen++) {
    index = rest.indexOf("\n", index + 1);
    if (index < 0) return rest.length;
  }
  return index;
}

function nextLineCloses(rest: string, cut: Cut, open: CodeFence): Cut | undefined {
  if (cut.next === cut.end || rest[cut.end] !== "\n") return undefined;
  const lineStart = cut.end + 1;
  const lineEnd = rest.indexOf("\n", lineStart);
  const end = lineEnd < 0 ? rest.length : lineEnd;
  if (!closesFence(rest.slice(lineStart, end), open.marker)) return undefined;
  return { end, next: lineEnd < 0 ? end : end + 1 };
}

function bestCut(rest: string, limit: number, isInsideSpan: (end: number) => boolean): Cut {
  if (limit >= rest.length) return { end: rest.length, next: rest.length };
  const window = rest.slice(0, limit + 1);
  const kinds: Cut[][] = [paragraphCuts(window, limit), lineCuts(window, limit), sentenceCuts(window, limit)];
  kinds.push(wordCuts(window, limit));
  const outsideSpans = kinds.map((cuts) => cuts.filter((cut) => !isInsideSpan(cut.end)));
  return pickCut(outsideSpans, limit) ?? pickCut(kinds, limit) ?? graphemeCut(rest, limit);
}

// The best kind of break in the later half of the window; failing that, the latest break of any kind.
function pickCut(kinds: Cut[][], limit: number): Cut | undefined {
  const preferredFrom = Math.floor(limit * PREFERRED_SHARE);
  for (const cuts of kinds) {
    const cut = cuts.at(-1);
    if (cut !== undefined && cut.end >= preferredFrom) return cut;
  }
  return kinds
    .flat()
    .filter((cut) => cut.end > 0)
    .sort((a, b) => b.end - a.end)[0];
}

function paragraphCuts(window: string, limit: number): Cut[] {
  const cuts: Cut[] = [];
  for (const match of window.matchAll(/\n[ \t]*\n+/g)) {
    if (match.index > 0 && match.index <= limit) cuts.push({ end: match.index, next: match.index + match[0].length });
  }
  return cuts;
}

function lineCuts(window: string, limit: number): Cut[] {
  const cuts: Cut[] = [];
  for (let i = window.indexOf("\n"); i >= 0 && i <= limit; i = window.indexOf("\n", i + 1)) {
    if (i > 0) cuts.push({ end: i, next: i + 1 });
  }
  return cuts;
}

function sentenceCuts(window: string, limit: number): Cut[] {
  const cuts: Cut[] = [];
  for (const match of window.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    if (end <= limit && window[end] === " ") cuts.push({ end, next: end + 1 });
  }
  return cuts;
}

function wordCuts(window: string, limit: number): Cut[] {
  const cuts: Cut[] = [];
  for (const match of window.matchAll(/[ \t]+/g)) {
    if (match.index > 0 && match.index <= limit) cuts.push({ end: match.index, next: match.index + match[0].length });
  }
  return cuts;
}

// A grapheme boundary at p depends only on the code points before p and the one starting at p, so segmenting
// up to limit + 2 code units (a whole code point at `limit`) finds every boundary up to `limit` correctly.
function graphemeCut(rest: string, limit: number): Cut {
  const window = rest.slice(0, limit + 2);
  let end = 0;
  for (const { index } of segmenter.segment(window)) {
    if (index > limit) break;
    end = index;
  }
  if (end === 0) {
    // One grapheme longer than the whole message: split it, but never inside a surrogate pair.
    end = limit;
    const code = window.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff && end > 1) end--;
  }
  return { end, next: end };
}
