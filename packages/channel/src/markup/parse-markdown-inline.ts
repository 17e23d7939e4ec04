import type { MarkdownInline } from "./markdown-ast.js";

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const BARE_URL = /^https?:\/\/[^\s<>]+/;
const AUTOLINK = /^<(https?:\/\/[^\s<>]+|mailto:[^\s<>]+)>/;

/**
 * Parses inline Markdown (emphasis, strike, code spans, links, autolinks, bare URLs, line breaks).
 * Contract: never throws; anything that does not form valid syntax (an unbalanced `*`, a lone `[`) stays literal text.
 */
export function parseMarkdownInline(text: string): MarkdownInline[] {
  const out: MarkdownInline[] = [];
  let buffer = "";
  const flush = (): void => {
    if (buffer.length > 0) out.push({ type: "text", text: buffer });
    buffer = "";
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === "\\" && next !== undefined && ASCII_PUNCTUATION.test(next)) {
      buffer += next;
      i += 2;
      continue;
    }
    if (ch === "\n") {
      flush();
      out.push({ type: "break" });
      i++;
      continue;
    }
    if (ch === "`") {
      const run = runLength(text, i, "`");
      const close = findBacktickClose(text, i + run, run);
      if (close < 0) {
        buffer += "`".repeat(run);
        i += run;
        continue;
      }
      flush();
      out.push({ type: "code", text: trimCodeSpan(text.slice(i + run, close)) });
      i = close + run;
      continue;
    }
    if (ch === "*" || ch === "_" || ch === "~") {
      const span = tryEmphasis(text, i);
      if (span !== undefined) {
        flush();
        out.push(span.node);
        i = span.end;
        continue;
      }
      const run = runLength(text, i, ch);
      buffer += ch.repeat(run);
      i += run;
      continue;
    }
    if (ch === "[") {
      const link = tryLink(text, i);
      if (link !== undefined) {
        flush();
        out.push(link.node);
        i = link.end;
        continue;
      }
    }
    if (ch === "<") {
      const match = AUTOLINK.exec(text.slice(i));
      if (match?.[1] !== undefined) {
        flush();
        out.push({ type: "link", url: match[1], children: [{ type: "text", text: match[1].replace(/^mailto:/, "") }] });
        i += match[0].length;
        continue;
      }
    }
    if (ch === "h" && (i === 0 || !WORD_CHAR.test(text[i - 1]!))) {
      const url = bareUrlAt(text, i);
      if (url !== undefined) {
        flush();
        out.push({ type: "bare-url", url });
        i += url.length;
        continue;
      }
    }
    buffer += ch;
    i++;
  }
  flush();
  return out;
}

function runLength(text: string, start: number, ch: string): number {
  let end = start;
  while (text[end] === ch) end++;
  return end - start;
}

function findBacktickClose(text: string, from: number, run: number): number {
  let i = text.indexOf("`", from);
  while (i >= 0) {
    const length = runLength(text, i, "`");
    if (length === run) return i;
    i = text.indexOf("`", i + length);
  }
  return -1;
}

function trimCodeSpan(code: string): string {
  const padded = code.length >= 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim().length > 0;
  return padded ? code.slice(1, -1) : code;
}

function isSpace(ch: string | undefined): boolean {
  return ch === undefined || /\s/.test(ch);
}

function tryEmphasis(text: string, start: number): { node: MarkdownInline; end: number } | undefined {
  const ch = text[start]!;
  const run = runLength(text, start, ch);
  // "_" inside a word (snake_case) is never emphasis.
  if (ch === "_" && start > 0 && WORD_CHAR.test(text[start - 1]!)) return undefined;
  const widths = ch === "~" ? [2] : run >= 2 ? [2, 1] : [1];
  for (const width of widths) {
    if (run < width) continue;
    const contentStart = start + width;
    if (isSpace(text[contentStart])) continue;
    const close = findEmphasisClose(text, contentStart, ch, width);
    if (close < 0) continue;
    const children = parseMarkdownInline(text.slice(contentStart, close));
    const type = ch === "~" ? "strike" : width === 2 ? "bold" : "italic";
    return { node: { type, children }, end: close + width };
  }
  return undefined;
}

// A closing run must follow non-space. A run longer than needed closes with its last characters, so that
// `**a *b***` nests; a run of exactly two never closes single emphasis, because it is bold inside it.
function findEmphasisClose(text: string, from: number, ch: string, width: number): number {
  let i = from;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "`") {
      const run = runLength(text, i, "`");
      const close = findBacktickClose(text, i + run, run);
      i = close < 0 ? i + run : close + run;
      continue;
    }
    if (c !== ch) {
      i++;
      continue;
    }
    const run = runLength(text, i, ch);
    const fits = width === 1 ? run !== 2 : run >= 2;
    const after = text[i + run];
    const wordAfter = ch === "_" && after !== undefined && WORD_CHAR.test(after);
    if (fits && i > from && !isSpace(text[i - 1]) && !wordAfter) return i + run - width;
    i += run;
  }
  return -1;
}

function tryLink(text: string, start: number): { node: MarkdownInline; end: number } | undefined {
  let depth = 0;
  let i = start;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) break;
  }
  if (i >= text.length || text[i + 1] !== "(") return undefined;
  const labelEnd = i;
  let parens = 0;
  let j = i + 2;
  for (; j < text.length; j++) {
    const c = text[j]!;
    if (/\s/.test(c)) return undefined;
    if (c === "(") parens++;
    else if (c === ")" && parens-- === 0) break;
  }
  if (j >= text.length) return undefined;
  let url = text.slice(labelEnd + 2, j);
  if (url.startsWith("<") && url.endsWith(">")) url = url.slice(1, -1);
  if (url.length === 0) return undefined;
  return { node: { type: "link", url, children: parseMarkdownInline(text.slice(start + 1, labelEnd)) }, end: j + 1 };
}

function bareUrlAt(text: string, start: number): string | undefined {
  const match = BARE_URL.exec(text.slice(start, start + 2048));
  if (match === null) return undefined;
  let url = match[0];
  // Sentence punctuation after a URL is not part of it; neither is an unmatched closing parenthesis.
  for (;;) {
    const last = url.at(-1);
    if (last !== undefined && ".,;:!?'\"*_~".includes(last)) url = url.slice(0, -1);
    else if (last === ")" && count(url, "(") < count(url, ")")) url = url.slice(0, -1);
    else break;
  }
  return url;
}

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}
