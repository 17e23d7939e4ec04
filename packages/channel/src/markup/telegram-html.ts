import { type DialectRenderer, isSafeLinkUrl } from "./dialect-renderer.js";

/** Escapes text for Telegram's HTML parse mode, where only &, < and > (and " in attributes) are special. */
export function escapeTelegramHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeTelegramHtml(text).replaceAll('"', "&quot;");
}

/** Telegram HTML: only the tags Telegram accepts (b, i, s, code, pre, a, blockquote). */
export const telegramHtmlRenderer: DialectRenderer = {
  text: (text) => escapeTelegramHtml(text),
  bold: (inner) => `<b>${inner}</b>`,
  italic: (inner) => `<i>${inner}</i>`,
  strike: (inner) => `<s>${inner}</s>`,
  code: (text) => `<code>${escapeTelegramHtml(text)}</code>`,
  link: (url, inner, plain) =>
    isSafeLinkUrl(url) ? `<a href="${escapeAttribute(url)}">${inner}</a>` : escapeTelegramHtml(`${plain} (${url})`),
  bareUrl: (url) => escapeTelegramHtml(url),
  heading: (_level, inner) => `<b>${inner}</b>`,
  codeBlock: (language, text) => {
    const safe = language !== undefined && /^[\w+#.-]{1,32}$/.test(language);
    const open = safe ? `<pre><code class="language-${language}">` : "<pre><code>";
    return `${open}${escapeTelegramHtml(text)}</code></pre>`;
  },
  listItemPrefix: (ordered, number) => (ordered ? `${number}. ` : "• "),
  // Telegram rejects nested blockquotes, so an inner quote is merged into the outer one.
  quote: (inner) => `<blockquote>${inner.replace(/<\/?blockquote>/g, "")}</blockquote>`,
  rule: () => "———",
};
