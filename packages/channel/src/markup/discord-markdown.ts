import { type DialectRenderer, isSafeLinkUrl, prefixQuoteLines } from "./dialect-renderer.js";

const ZERO_WIDTH_SPACE = "\u200b";

/**
 * Escapes literal text for Discord markdown: formatting characters get a backslash, line-leading block markers
 * are escaped, and @everyone / @here are defused so agent text can never ping a whole server.
 */
export function escapeDiscordText(text: string, atLineStart: boolean): string {
  let escaped = text.replace(/[\\*_~`|]/g, "\\$&").replace(/@(everyone|here)\b/g, `@${ZERO_WIDTH_SPACE}$1`);
  // Block syntax only matters at the start of a line.
  escaped = escaped.replace(/(^|\n)([ \t]*)([#>+-]|\d+\.)/g, (match, newline: string, space: string, mark: string) =>
    newline === "" && !atLineStart ? match : `${newline}${space}\\${mark}`,
  );
  return escaped;
}

// A fence inside a code block would end it early; a zero-width space between the backticks keeps it literal.
function defuseFences(text: string): string {
  return text.replace(/```/g, `\`${ZERO_WIDTH_SPACE}\`\``);
}

function inlineCode(text: string): string {
  if (!text.includes("`")) return `\`${text}\``;
  return `\`\` ${text.replace(/``+/g, (run) => run.split("").join(ZERO_WIDTH_SPACE))} \`\``;
}

/** Discord markdown: CommonMark-like, headings 1–3 only, masked links, no rules. */
export const discordMarkdownRenderer: DialectRenderer = {
  text: escapeDiscordText,
  bold: (inner) => `**${inner}**`,
  italic: (inner) => `*${inner}*`,
  strike: (inner) => `~~${inner}~~`,
  code: inlineCode,
  link: (url, inner, plain) =>
    isSafeLinkUrl(url)
      ? `[${inner.replace(/[[\]]/g, "\\$&")}](${url.replace(/[()\s]/g, encodeURIComponent)})`
      : escapeDiscordText(`${plain} (${url})`, false),
  bareUrl: (url) => url,
  heading: (level, inner) => (level <= 3 ? `${"#".repeat(level)} ${inner}` : `**${inner}**`),
  codeBlock: (language, text) => {
    const info = language !== undefined && /^[\w+#.-]{1,32}$/.test(language) ? language : "";
    return `\`\`\`${info}\n${defuseFences(text)}\n\`\`\``;
  },
  listItemPrefix: (ordered, number) => (ordered ? `${number}. ` : "- "),
  quote: prefixQuoteLines,
  rule: () => "———",
};
