import { closesFence, parseFenceOpen } from "./code-fence.js";
import type { MarkdownBlock, MarkdownListItem } from "./markdown-ast.js";
import { parseMarkdownInline } from "./parse-markdown-inline.js";

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;

/**
 * Parses Markdown into blocks: paragraphs, ATX headings, fenced code, lists, blockquotes and rules.
 * Contract: never throws; an unclosed fence runs to the end of the text; code text is kept byte for byte.
 */
export function parseMarkdownBlocks(source: string): MarkdownBlock[] {
  return parseLines(source.replace(/\r\n?/g, "\n").split("\n"));
}

function parseLines(lines: string[]): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let i = 0;
  let blankBefore = false;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim().length === 0) {
      blankBefore = true;
      i++;
      continue;
    }
    const spaced = blankBefore;
    blankBefore = false;
    const push = (block: MarkdownBlock): void => {
      blocks.push(spaced ? { ...block, spaced } : block);
    };
    const fence = parseFenceOpen(line);
    if (fence !== undefined) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !closesFence(lines[i]!, fence.marker)) {
        body.push(stripIndent(lines[i]!, fence.indent));
        i++;
      }
      i++; // the closing fence, if any
      push({ type: "code-block", language: fence.language, text: body.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      const level = heading[1]!.length;
      push({ type: "heading", level, children: parseMarkdownInline(heading[2] ?? "") });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      push({ type: "rule" });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) {
        inner.push(QUOTE.exec(lines[i]!)?.[1] ?? "");
        i++;
      }
      push({ type: "blockquote", children: parseLines(inner) });
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const items: MarkdownListItem[] = [];
      const texts: string[] = [];
      while (i < lines.length && lines[i]!.trim().length > 0) {
        const current = lines[i]!;
        const item = LIST_ITEM.exec(current);
        if (item !== null) {
          const marker = item[2]!;
          const ordered = /\d/.test(marker);
          items.push({
            depth: Math.floor(item[1]!.replace(/\t/g, "  ").length / 2),
            ordered,
            number: ordered ? Number.parseInt(marker, 10) : 0,
            children: [],
          });
          texts.push(item[3]!);
        } else if (startsBlock(current)) {
          break;
        } else {
          // A lazy continuation line belongs to the item above it.
          texts[texts.length - 1] += `\n${current.trim()}`;
        }
        i++;
      }
      items.forEach((item, index) => {
        item.children = parseMarkdownInline(texts[index] ?? "");
      });
      push({ type: "list", items });
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && lines[i]!.trim().length > 0 && (paragraph.length === 0 || !startsBlock(lines[i]!))) {
      paragraph.push(lines[i]!.trim());
      i++;
    }
    push({ type: "paragraph", children: parseMarkdownInline(paragraph.join("\n")) });
  }
  return blocks;
}

function startsBlock(line: string): boolean {
  return (
    parseFenceOpen(line) !== undefined ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    LIST_ITEM.test(line)
  );
}

function stripIndent(line: string, indent: number): string {
  let removed = 0;
  while (removed < indent && line[removed] === " ") removed++;
  return line.slice(removed);
}
