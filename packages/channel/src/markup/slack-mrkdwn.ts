import { type DialectRenderer, isSafeLinkUrl, prefixQuoteLines } from "./dialect-renderer.js";

/** Escapes text for Slack mrkdwn, where &, < and > are control characters everywhere (even in code). */
export function escapeSlackText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

// Inside <url|text> the URL must not contain the delimiters themselves.
function slackUrl(url: string): string {
  return url.replaceAll("|", "%7C").replaceAll("<", "%3C").replaceAll(">", "%3E");
}

/** Slack mrkdwn: *bold*, _italic_, ~strike~, `code`, ``` blocks (no language), <url|text> links. */
export const slackMrkdwnRenderer: DialectRenderer = {
  text: (text) => escapeSlackText(text),
  bold: (inner) => `*${inner}*`,
  italic: (inner) => `_${inner}_`,
  strike: (inner) => `~${inner}~`,
  code: (text) => `\`${escapeSlackText(text)}\``,
  link: (url, _inner, plain) =>
    isSafeLinkUrl(url) ? `<${slackUrl(url)}|${escapeSlackText(plain)}>` : escapeSlackText(`${plain} (${url})`),
  bareUrl: (url) => `<${slackUrl(url)}>`,
  heading: (_level, inner) => `*${inner}*`,
  codeBlock: (_language, text) => `\`\`\`\n${escapeSlackText(text)}\n\`\`\``,
  listItemPrefix: (ordered, number) => (ordered ? `${number}. ` : "• "),
  quote: prefixQuoteLines,
  rule: () => "———",
};
