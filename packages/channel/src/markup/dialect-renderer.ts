import type { MarkdownBlock, MarkdownInline } from "./markdown-ast.js";

/** How one markup dialect writes each Markdown construct. Inputs named `inner` are already rendered. */
export interface DialectRenderer {
  /** Literal text; `atLineStart` is true when it begins a line, where some dialects need extra escaping. */
  text(text: string, atLineStart: boolean): string;
  bold(inner: string): string;
  italic(inner: string): string;
  strike(inner: string): string;
  code(text: string): string;
  link(url: string, inner: string, plain: string): string;
  bareUrl(url: string): string;
  heading(level: number, inner: string): string;
  codeBlock(language: string | undefined, text: string): string;
  listItemPrefix(ordered: boolean, number: number): string;
  quote(inner: string): string;
  rule(): string;
}

/**
 * Renders parsed Markdown blocks with a dialect. Blocks keep the source's spacing (a blank line between them
 * or not), so rendering never adds lines that a line limit would then have to absorb; empty code blocks are left out.
 */
export function renderBlocks(blocks: readonly MarkdownBlock[], dialect: DialectRenderer): string {
  let out = "";
  for (const block of blocks) {
    if (block.type === "code-block" && block.text.trim().length === 0) continue;
    const rendered = renderBlock(block, dialect);
    if (rendered.length === 0) continue;
    out += out.length === 0 ? rendered : `${block.spaced ? "\n\n" : "\n"}${rendered}`;
  }
  return out;
}

function renderBlock(block: MarkdownBlock, dialect: DialectRenderer): string {
  switch (block.type) {
    case "paragraph":
      return renderInline(block.children, dialect);
    case "heading":
      return dialect.heading(block.level, renderInline(block.children, dialect));
    case "code-block":
      return dialect.codeBlock(block.language, block.text);
    case "rule":
      return dialect.rule();
    case "blockquote":
      return dialect.quote(renderBlocks(block.children, dialect));
    case "list":
      return block.items
        .map((item) => {
          const prefix = "  ".repeat(item.depth) + dialect.listItemPrefix(item.ordered, item.number);
          const body = renderInline(item.children, dialect, false);
          return prefix + body.replaceAll("\n", `\n${" ".repeat(prefix.length)}`);
        })
        .join("\n");
  }
}

/** Renders inline nodes with a dialect. */
export function renderInline(nodes: readonly MarkdownInline[], dialect: DialectRenderer, atLineStart = true): string {
  let out = "";
  let lineStart = atLineStart;
  for (const node of nodes) {
    out += renderInlineNode(node, dialect, lineStart);
    lineStart = node.type === "break";
  }
  return out;
}

function renderInlineNode(node: MarkdownInline, dialect: DialectRenderer, atLineStart: boolean): string {
  switch (node.type) {
    case "text":
      return dialect.text(node.text, atLineStart);
    case "break":
      return "\n";
    case "bold":
      return dialect.bold(renderInline(node.children, dialect, false));
    case "italic":
      return dialect.italic(renderInline(node.children, dialect, false));
    case "strike":
      return dialect.strike(renderInline(node.children, dialect, false));
    case "code":
      return dialect.code(node.text);
    case "bare-url":
      return dialect.bareUrl(node.url);
    case "link":
      return dialect.link(node.url, renderInline(node.children, dialect, false), plainTextOf(node.children));
  }
}

/** The visible text of inline nodes, without any formatting. */
export function plainTextOf(nodes: readonly MarkdownInline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
        case "code":
          return node.text;
        case "break":
          return "\n";
        case "bare-url":
          return node.url;
        default:
          return plainTextOf(node.children);
      }
    })
    .join("");
}

/** Only these schemes become clickable links; anything else (javascript:, data:) is shown as text. */
export function isSafeLinkUrl(url: string): boolean {
  return /^(https?:|mailto:|tg:)/i.test(url);
}

/** Prefixes every line with "> ", the quote syntax of Slack and Discord. */
export function prefixQuoteLines(inner: string): string {
  return inner
    .split("\n")
    .map((line) => (line.length === 0 ? ">" : `> ${line}`))
    .join("\n");
}
