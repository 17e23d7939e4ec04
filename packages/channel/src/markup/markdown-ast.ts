/** Inline Markdown, as far as chat platforms can show it. */
export type MarkdownInline =
  | { type: "text"; text: string }
  | { type: "bold"; children: MarkdownInline[] }
  | { type: "italic"; children: MarkdownInline[] }
  | { type: "strike"; children: MarkdownInline[] }
  | { type: "code"; text: string }
  | { type: "link"; url: string; children: MarkdownInline[] }
  /** A URL written without link syntax; platforms link these themselves. */
  | { type: "bare-url"; url: string }
  | { type: "break" };

/** One list item; `depth` 0 is the outermost level. */
export interface MarkdownListItem {
  depth: number;
  ordered: boolean;
  /** The item's number for ordered lists. */
  number: number;
  children: MarkdownInline[];
}

/** Block-level Markdown. */
export type MarkdownBlock = (
  | { type: "paragraph"; children: MarkdownInline[] }
  | { type: "heading"; level: number; children: MarkdownInline[] }
  | { type: "code-block"; language: string | undefined; text: string }
  | { type: "list"; items: MarkdownListItem[] }
  | { type: "blockquote"; children: MarkdownBlock[] }
  | { type: "rule" }
) & {
  /** Whether a blank line separated this block from the one before; rendering keeps that spacing. */
  spaced?: boolean;
};
