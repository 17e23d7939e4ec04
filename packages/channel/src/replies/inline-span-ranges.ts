// Inline constructs that must stay on one line to render: code spans, links, and emphasis.
const SPAN_PATTERNS: readonly RegExp[] = [
  /`[^`\n]+`/g,
  /\[[^\]\n]*\]\([^)\s]*\)/g,
  /\*\*(?!\s)[^\n]+?\*\*/g,
  /__(?!\s)[^\n]+?__/g,
  /~~(?!\s)[^\n]+?~~/g,
  /(?<![*\w])\*(?![\s*])[^*\n]+?\*/g,
  /(?<![_\w])_(?![\s_])[^_\n]+?_(?!\w)/g,
];

/**
 * Where the Markdown has inline spans (code, links, bold, italic, strike) on one line, as [start, end) ranges,
 * so the splitter can avoid cutting through them. A heuristic: it only steers the choice of break.
 * Contract: ranges are within the text; they may overlap.
 */
export function inlineSpanRanges(markdown: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const pattern of SPAN_PATTERNS) {
    for (const match of markdown.matchAll(pattern)) ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}
