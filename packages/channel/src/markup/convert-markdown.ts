import type { MarkupDialect } from "../channel/channel-types.js";
import { type DialectRenderer, renderBlocks } from "./dialect-renderer.js";
import { discordMarkdownRenderer } from "./discord-markdown.js";
import { parseMarkdownBlocks } from "./parse-markdown-blocks.js";
import { plainTextRenderer } from "./plain-text.js";
import { slackMrkdwnRenderer } from "./slack-mrkdwn.js";
import { telegramHtmlRenderer } from "./telegram-html.js";

const RENDERERS: Record<Exclude<MarkupDialect, "markdown">, DialectRenderer> = {
  "discord-md": discordMarkdownRenderer,
  "slack-mrkdwn": slackMrkdwnRenderer,
  "telegram-html": telegramHtmlRenderer,
  plain: plainTextRenderer,
};

/**
 * Converts the agent's Markdown into a channel's markup dialect, escaping literal text so that what the user
 * sees is what the agent wrote (a literal `<script>` stays visible text, never markup).
 * Contract: never throws; "markdown" returns the input unchanged (its renderer, e.g. WebChat, does the escaping);
 * code blocks and code spans are never formatted, only escaped.
 */
export function convertMarkdown(markdown: string, dialect: MarkupDialect): string {
  if (dialect === "markdown") return markdown;
  return renderBlocks(parseMarkdownBlocks(markdown), RENDERERS[dialect]);
}
