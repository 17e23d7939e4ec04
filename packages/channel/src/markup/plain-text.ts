import type { DialectRenderer } from "./dialect-renderer.js";

/** Plain text: formatting dropped, links written as "text (url)", code kept verbatim. */
export const plainTextRenderer: DialectRenderer = {
  text: (text) => text,
  bold: (inner) => inner,
  italic: (inner) => inner,
  strike: (inner) => inner,
  code: (text) => text,
  link: (url, _inner, plain) => (plain === url || `mailto:${plain}` === url ? plain : `${plain} (${url})`),
  bareUrl: (url) => url,
  heading: (_level, inner) => inner,
  codeBlock: (_language, text) => text,
  listItemPrefix: (ordered, number) => (ordered ? `${number}. ` : "• "),
  quote: (inner) =>
    inner
      .split("\n")
      .map((line) => `> ${line}`)
      .join("\n"),
  rule: () => "———",
};
